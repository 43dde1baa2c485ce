import { randomBytes } from 'node:crypto';
import type { AnyStore } from '../engine/types.js';

/** A secret made once per database, so tokens derived from it survive restarts. */
export async function databaseSecret(store: AnyStore, key: string): Promise<string> {
  const existing = await store.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  if (existing) return existing.value;
  await store.db.insertInto('settings').values({ key, value: randomBytes(32).toString('base64url') }).onConflict((oc) => oc.doNothing()).execute();
  const row = await store.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
  return row.value;
}
