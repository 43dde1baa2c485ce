import type { Role, User } from '../../../core/api/auth.js';
import { isUniqueViolation } from '../engine/dialect.js';
import type { AnyStore } from '../engine/types.js';

/**
 * The password hash of an account made by single sign-on: no scrypt hash, so no password
 * matches it (passwords.ts verifyPassword) until an admin sets one with `user passwd`.
 */
export const NO_PASSWORD = 'sso';

/** Names tried for a new account before giving up: "alice", then "alice-2" ... "alice-20". */
const NAME_TRIES = 20;

export async function findUserByIdentity(store: AnyStore, issuer: string, subject: string): Promise<User | null> {
  const row = await store.db.selectFrom('users').select(['id', 'username', 'role']).where('oidc_issuer', '=', issuer).where('oidc_subject', '=', subject).executeTakeFirst();
  return row ?? null;
}

export async function findUserById(store: AnyStore, id: number): Promise<User | null> {
  const row = await store.db.selectFrom('users').select(['id', 'username', 'role']).where('id', '=', id).executeTakeFirst();
  return row ?? null;
}

/**
 * A new account for an identity the provider vouched for. Its name comes from the provider but
 * never takes over an account of that name (a local "admin", someone from another issuer): a
 * taken name gets a number. Null when every name tried is taken.
 */
export async function createSsoUser(store: AnyStore, input: { issuer: string; subject: string; name: string; role: Role }, now: number): Promise<User | null> {
  for (let n = 1; n <= NAME_TRIES; n++) {
    const username = n === 1 ? input.name : `${input.name}-${n}`;
    try {
      return await store.db
        .insertInto('users')
        .values({ username, password_hash: NO_PASSWORD, role: input.role, created_at: now, updated_at: now, oidc_issuer: input.issuer, oidc_subject: input.subject })
        .returning(['id', 'username', 'role'])
        .executeTakeFirstOrThrow();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // The same identity signing in twice at once: the other sign-in made the account.
      const made = await findUserByIdentity(store, input.issuer, input.subject);
      if (made) return made;
    }
  }
  return null;
}

/** The provider's groups decide the role: a change ends the account's other sessions (a demotion acts at once). */
export async function syncSsoRole(store: AnyStore, userId: number, role: Role, now: number): Promise<void> {
  await store.db.transaction().execute(async (trx) => {
    const changed = await trx.updateTable('users').set({ role, updated_at: now }).where('id', '=', userId).where('role', '!=', role).returning('id').executeTakeFirst();
    if (changed) await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
  });
}

/** Ends every session of an account the provider no longer lets sign in; how many ended. */
export async function endSsoSessions(store: AnyStore, userId: number): Promise<number> {
  const result = await store.db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
