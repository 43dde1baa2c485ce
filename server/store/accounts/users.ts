import type { Role, User } from '../../../core/api/auth.js';
import { isUniqueViolation } from '../engine/dialect.js';
import type { AnyStore } from '../engine/types.js';

export class UserExistsError extends Error {
  constructor(username: string) {
    super(`a user named ${username} already exists`);
    this.name = 'UserExistsError';
  }
}

export interface UserRecord extends User {
  password_hash: string;
  created_at: number;
}

const columns = ['id', 'username', 'role', 'password_hash', 'created_at'] as const;

export async function countUsers(store: AnyStore): Promise<number> {
  const row = await store.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function createUser(store: AnyStore, input: { username: string; passwordHash: string; role: Role }, now = Date.now()): Promise<User> {
  try {
    const row = await store.db
      .insertInto('users')
      .values({ username: input.username, password_hash: input.passwordHash, role: input.role, created_at: now, updated_at: now })
      .returning(['id', 'username', 'role'])
      .executeTakeFirstOrThrow();
    return row;
  } catch (error) {
    if (isUniqueViolation(error)) throw new UserExistsError(input.username);
    throw error;
  }
}

export async function findUser(store: AnyStore, username: string): Promise<UserRecord | null> {
  const row = await store.db.selectFrom('users').select(columns).where('username', '=', username).executeTakeFirst();
  return row ?? null;
}

export async function listUsers(store: AnyStore): Promise<UserRecord[]> {
  return store.db.selectFrom('users').select(columns).orderBy('username').execute();
}

/**
 * A new password ends every session of the user and revokes their API tokens (whoever knew the
 * old password may have made one), and lifts any sign-in lock. Returns the tokens revoked, or
 * null when there is no such user.
 */
export async function setPassword(store: AnyStore, username: string, passwordHash: string): Promise<{ tokensRevoked: number } | null> {
  return store.db.transaction().execute(async (trx) => {
    const user = await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, failed_attempts: 0, locked: 0, updated_at: Date.now() })
      .where('username', '=', username)
      .returning('id')
      .executeTakeFirst();
    if (!user) return null;
    await trx.deleteFrom('sessions').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('login_failures').where('user_id', '=', user.id).execute();
    const tokens = await trx.deleteFrom('api_tokens').where('user_id', '=', user.id).executeTakeFirst();
    return { tokensRevoked: Number(tokens.numDeletedRows) };
  });
}

export async function setRole(store: AnyStore, username: string, role: Role): Promise<boolean> {
  return store.db.transaction().execute(async (trx) => {
    const user = await trx.updateTable('users').set({ role, updated_at: Date.now() }).where('username', '=', username).returning('id').executeTakeFirst();
    if (!user) return false;
    await trx.deleteFrom('sessions').where('user_id', '=', user.id).execute();
    return true;
  });
}

/** Sessions and API tokens go with the user (foreign keys cascade); uploads keep their rows. */
export async function removeUser(store: AnyStore, username: string): Promise<boolean> {
  const result = await store.db.deleteFrom('users').where('username', '=', username).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}


/**
 * Replaces a password hash with one of the same password under other settings (the server's,
 * at sign-in): nothing else of the account changes. Only when the stored hash is still `from`,
 * so a password changed meanwhile is never overwritten.
 */
export async function rehashPassword(store: AnyStore, userId: number, from: string, to: string): Promise<void> {
  await store.db.updateTable('users').set({ password_hash: to }).where('id', '=', userId).where('password_hash', '=', from).execute();
}
