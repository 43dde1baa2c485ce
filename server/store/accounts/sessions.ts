import type { User } from '../../../core/api/auth.js';
import type { AnyStore } from '../engine/types.js';

export interface SessionRecord {
  id: number;
  session_hash: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  user: User;
  /** The account signs in through single sign-on (it has a provider identity, no password). */
  sso: boolean;
}

export async function createSession(store: AnyStore, input: { tokenHash: string; sessionHash: string; userId: number; expiresAt: number }, now = Date.now()): Promise<void> {
  await store.db
    .insertInto('sessions')
    .values({ token_hash: input.tokenHash, session_hash: input.sessionHash, user_id: input.userId, created_at: now, last_seen_at: now, expires_at: input.expiresAt })
    .execute();
}

/**
 * The live session a bearer token names, with its user; null when unknown, idle too long, or
 * older than `maxAgeMs` however active (a stolen token does not live forever).
 */
export async function findSession(store: AnyStore, tokenHash: string, now: number, maxAgeMs: number): Promise<SessionRecord | null> {
  const row = await store.sql.get<{ id: number; session_hash: string; created_at: number; last_seen_at: number; expires_at: number; user_id: number; username: string; role: User['role']; oidc_subject: string | null }>(FIND_SESSION, { tokenHash, now, bornAfter: now - maxAgeMs });
  if (!row) return null;
  return { id: row.id, session_hash: row.session_hash, created_at: row.created_at, last_seen_at: row.last_seen_at, expires_at: row.expires_at, user: { id: row.user_id, username: row.username, role: row.role }, sso: row.oidc_subject !== null };
}

// Asked on every request the UI makes: one fixed text, not SQL built for each request.
const FIND_SESSION = `SELECT s.id, s.session_hash, s.created_at, s.last_seen_at, s.expires_at, u.id AS user_id, u.username, u.role, u.oidc_subject
  FROM sessions s JOIN users u ON u.id = s.user_id
  WHERE s.token_hash = @tokenHash AND s.expires_at > @now AND s.created_at > @bornAfter`;

/** Sliding expiry: each use pushes the end of an inactive session further out (never past its absolute end). */
export async function touchSession(store: AnyStore, id: number, now: number, expiresAt: number): Promise<void> {
  await store.db.updateTable('sessions').set({ last_seen_at: now, expires_at: expiresAt }).where('id', '=', id).execute();
}

export async function deleteSession(store: AnyStore, sessionHash: string, userId: number): Promise<boolean> {
  const result = await store.db.deleteFrom('sessions').where('session_hash', '=', sessionHash).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Sessions that can no longer be used: past their idle end, or older than `maxAgeMs` however active. */
export async function deleteExpiredSessions(store: AnyStore, now: number, maxAgeMs: number): Promise<number> {
  const result = await store.db.deleteFrom('sessions').where((eb) => eb.or([eb('expires_at', '<=', now), eb('created_at', '<=', now - maxAgeMs)])).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Keeps a user's newest `keep` sessions and ends the rest (sign-ins from a script cannot pile up). */
export async function keepNewestSessions(store: AnyStore, userId: number, keep: number): Promise<number> {
  const newest = store.db.selectFrom('sessions').select('id').where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(keep);
  const result = await store.db.deleteFrom('sessions').where('user_id', '=', userId).where('id', 'not in', newest).executeTakeFirst();
  return Number(result.numDeletedRows);
}
