import { randomBytes } from 'node:crypto';
import type { AdminSettings } from '../../../core/api/audit.js';
import type { AnyStore } from '../engine/types.js';

/** A secret made once per database, so tokens derived from it survive restarts. */
export async function databaseSecret(store: AnyStore, key: string): Promise<string> {
  const existing = await store.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  if (existing) return existing.value;
  await store.db.insertInto('settings').values({ key, value: randomBytes(32).toString('base64url') }).onConflict((oc) => oc.doNothing()).execute();
  const row = await store.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
  return row.value;
}

const SECOND_PERSON_KEY = 'second_person_approval';

/** What an admin sets on the settings screen; read on every review, so every server agrees at once. */
export async function readAdminSettings(store: AnyStore): Promise<AdminSettings> {
  const row = await store.db.selectFrom('settings').select('value').where('key', '=', SECOND_PERSON_KEY).executeTakeFirst();
  return { secondPersonApproval: row?.value === '1' };
}

export async function writeAdminSettings(store: AnyStore, settings: AdminSettings): Promise<void> {
  const value = settings.secondPersonApproval ? '1' : '0';
  await store.db.insertInto('settings').values({ key: SECOND_PERSON_KEY, value }).onConflict((oc) => oc.column('key').doUpdateSet({ value })).execute();
}
