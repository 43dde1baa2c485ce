/** What `flakeboard user` and `flakeboard token` share: the store, roles, tables and dates. */
import { ROLES, type Role } from '../../core/api/auth.js';
import { openAnyStore } from '../../server/store/engine/open-any.js';
import type { AnyStore } from '../../server/store/engine/types.js';
import { findUser, type UserRecord } from '../../server/store/accounts/users.js';
import { resolveDbTarget } from '../options.js';
import { inertLines } from '../../core/terminal-text.js';
import { userInfo } from 'node:os';
import { cliSource, recordAudit, type AuditRecord } from '../../server/store/accounts/audit.js';

/**
 * Opens the store named by --db (a SQLite file or a PostgreSQL URL) for one command and closes
 * it afterwards, whatever happens. One connection is all a command needs.
 */
export async function withStore<T>(db: string | undefined, work: (store: AnyStore) => Promise<T>): Promise<T> {
  const store = await openAnyStore(resolveDbTarget(db), { max: 1 });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

export function parseRole(value: string): Role {
  const role = value.trim().toLowerCase();
  if (!(ROLES as readonly string[]).includes(role)) throw new Error(`the role must be one of ${ROLES.join(', ')}`);
  return role as Role;
}

export async function requireUser(store: AnyStore, username: string): Promise<UserRecord> {
  const user = await findUser(store, username);
  if (!user) throw new Error(`no user named ${username}`);
  return user;
}

export async function countAdmins(store: AnyStore): Promise<number> {
  const row = await store.db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('role', '=', 'admin')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The admin added first, who owns tokens created without --user. */
export async function firstAdmin(store: AnyStore): Promise<{ id: number; username: string } | null> {
  const row = await store.db.selectFrom('users').select(['id', 'username']).where('role', '=', 'admin').orderBy('id').limit(1).executeTakeFirst();
  return row ?? null;
}

/** Left-aligned columns separated by two spaces; the first row is the header. */
export function formatTable(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd()).join('\n');
}

/** A day in UTC, as the rest of the CLI prints dates. */
export function formatDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** A minute in UTC. */
export function formatMinute(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Every line a command prints, made inert: it may hold report or user text. */
export function printLine(line: string): void {
  process.stdout.write(`${inertLines(line)}\n`);
}

/** Who runs this command on this machine: the system account, as far as it can be read. */
function systemUser(): string | null {
  try {
    return userInfo().username;
  } catch {
    return null;
  }
}

/**
 * Records a change a command made with --db in the audit trail: the command line on this host,
 * as the system user who ran it (or the flakeboard user named with --by).
 */
export async function auditCli(store: AnyStore, entry: Omit<AuditRecord, 'source' | 'actor'> & { actor?: { id: number; name: string } | null }): Promise<void> {
  const actor = entry.actor ? { kind: 'cli' as const, id: entry.actor.id, name: entry.actor.name } : { kind: 'cli' as const, id: null, name: systemUser() };
  await recordAudit(store, { ...entry, actor, source: cliSource() });
}
