import type { Role, User } from '../../core/api/auth.js';
import type { Store } from './open.js';

export class UserExistsError extends Error {
  constructor(username: string) {
    super(`a user named ${username} already exists`);
    this.name = 'UserExistsError';
  }
}

export interface UserRecord extends User {
  password_hash: string;
  failed_attempts: number;
  locked: boolean;
  created_at: number;
}

const columns = ['id', 'username', 'role', 'password_hash', 'failed_attempts', 'locked', 'created_at'] as const;

function toRecord(row: { id: number; username: string; role: Role; password_hash: string; failed_attempts: number; locked: number; created_at: number }): UserRecord {
  return { ...row, locked: row.locked === 1 };
}

export async function countUsers(store: Store): Promise<number> {
  const row = await store.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function createUser(store: Store, input: { username: string; passwordHash: string; role: Role }, now = Date.now()): Promise<User> {
  try {
    const row = await store.db
      .insertInto('users')
      .values({ username: input.username, password_hash: input.passwordHash, role: input.role, created_at: now, updated_at: now })
      .returning(['id', 'username', 'role'])
      .executeTakeFirstOrThrow();
    return row;
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new UserExistsError(input.username);
    throw error;
  }
}

export async function findUser(store: Store, username: string): Promise<UserRecord | null> {
  const row = await store.db.selectFrom('users').select(columns).where('username', '=', username).executeTakeFirst();
  return row ? toRecord(row) : null;
}

export async function listUsers(store: Store): Promise<UserRecord[]> {
  const rows = await store.db.selectFrom('users').select(columns).orderBy('username').execute();
  return rows.map(toRecord);
}

/** A new password ends every session of the user (DESIGN.md section 6). */
export async function setPassword(store: Store, username: string, passwordHash: string): Promise<boolean> {
  return store.db.transaction().execute(async (trx) => {
    const user = await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, failed_attempts: 0, locked: 0, updated_at: Date.now() })
      .where('username', '=', username)
      .returning('id')
      .executeTakeFirst();
    if (!user) return false;
    await trx.deleteFrom('sessions').where('user_id', '=', user.id).execute();
    return true;
  });
}

export async function setRole(store: Store, username: string, role: Role): Promise<boolean> {
  return store.db.transaction().execute(async (trx) => {
    const user = await trx.updateTable('users').set({ role, updated_at: Date.now() }).where('username', '=', username).returning('id').executeTakeFirst();
    if (!user) return false;
    await trx.deleteFrom('sessions').where('user_id', '=', user.id).execute();
    return true;
  });
}

/** Sessions and API tokens go with the user (foreign keys cascade); uploads keep their rows. */
export async function removeUser(store: Store, username: string): Promise<boolean> {
  const result = await store.db.deleteFrom('users').where('username', '=', username).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function unlockUser(store: Store, username: string): Promise<boolean> {
  const result = await store.db.updateTable('users').set({ locked: 0, failed_attempts: 0, updated_at: Date.now() }).where('username', '=', username).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Counts one failed sign-in; at `max` the account locks. Returns the attempts left. */
export async function recordFailedLogin(store: Store, userId: number, max: number): Promise<number> {
  const row = await store.db
    .updateTable('users')
    .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1), updated_at: Date.now() }))
    .where('id', '=', userId)
    .returning('failed_attempts')
    .executeTakeFirstOrThrow();
  const remaining = Math.max(0, max - row.failed_attempts);
  if (remaining === 0) await store.db.updateTable('users').set({ locked: 1 }).where('id', '=', userId).execute();
  return remaining;
}

export async function resetFailedLogins(store: Store, userId: number): Promise<void> {
  await store.db.updateTable('users').set({ failed_attempts: 0 }).where('id', '=', userId).where('failed_attempts', '>', 0).execute();
}
