import type { User } from '../../../core/api/auth.js';
import type { AnyStore } from '../engine/types.js';

/** What a token may do: send runs, read (the read routes, the gate, MCP), have its runs kept at once. */
export const TOKEN_SCOPES = ['upload', 'read', 'approve'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];
/** What a token made without saying gets: it sends runs, and nothing else. */
export const DEFAULT_TOKEN_SCOPES: readonly TokenScope[] = ['upload'];

const scopesOf = (text: string): TokenScope[] => text.split(' ').filter((s): s is TokenScope => (TOKEN_SCOPES as readonly string[]).includes(s));

export interface ApiTokenInfo {
  id: number;
  name: string;
  username: string;
  created_at: number;
  last_used_at: number | null;
  /** null: never expires. */
  expires_at: number | null;
  scopes: TokenScope[];
}

export async function createApiToken(store: AnyStore, input: { name: string; tokenHash: string; userId: number; expiresAt?: number | null; scopes?: readonly TokenScope[] }, now = Date.now()): Promise<number> {
  const scopes = TOKEN_SCOPES.filter((s) => (input.scopes ?? DEFAULT_TOKEN_SCOPES).includes(s)).join(' ');
  const row = await store.db
    .insertInto('api_tokens')
    .values({ name: input.name, token_hash: input.tokenHash, user_id: input.userId, created_at: now, last_used_at: null, expires_at: input.expiresAt ?? null, scopes })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * The token a hash names, expired or not (the caller says which, with a clear message). Asked on
 * every request a token makes, so its SQL is one fixed text rather than built for each request.
 */
export async function findApiToken(store: AnyStore, tokenHash: string): Promise<{ id: number; name: string; last_used_at: number | null; expires_at: number | null; scopes: TokenScope[]; user: User } | null> {
  const row = await store.sql.get<{ id: number; name: string; last_used_at: number | null; expires_at: number | null; scopes: string; user_id: number; username: string; role: User['role'] }>(FIND_TOKEN, { tokenHash });
  return row ? { id: row.id, name: row.name, last_used_at: row.last_used_at, expires_at: row.expires_at, scopes: scopesOf(row.scopes), user: { id: row.user_id, username: row.username, role: row.role } } : null;
}

const FIND_TOKEN = `SELECT t.id, t.name, t.last_used_at, t.expires_at, t.scopes, u.id AS user_id, u.username, u.role
  FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = @tokenHash`;

export async function touchApiToken(store: AnyStore, id: number, now = Date.now()): Promise<void> {
  await store.db.updateTable('api_tokens').set({ last_used_at: now }).where('id', '=', id).execute();
}

export async function listApiTokens(store: AnyStore): Promise<ApiTokenInfo[]> {
  const rows = await store.db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .select(['api_tokens.id', 'api_tokens.name', 'users.username', 'api_tokens.created_at', 'api_tokens.last_used_at', 'api_tokens.expires_at', 'api_tokens.scopes'])
    .orderBy('api_tokens.id')
    .execute();
  return rows.map((row) => ({ ...row, scopes: scopesOf(row.scopes) }));
}

/** Revokes by id, or by name when the name is unique. Returns how many were revoked. */
export async function revokeApiToken(store: AnyStore, idOrName: string): Promise<number> {
  const byId = /^\d+$/.test(idOrName) ? await store.db.deleteFrom('api_tokens').where('id', '=', Number(idOrName)).executeTakeFirst() : null;
  if (byId && Number(byId.numDeletedRows) > 0) return Number(byId.numDeletedRows);
  const matches = await store.db.selectFrom('api_tokens').select('id').where('name', '=', idOrName).execute();
  if (matches.length !== 1) return matches.length === 0 ? 0 : -matches.length;
  await store.db.deleteFrom('api_tokens').where('id', '=', matches[0]!.id).execute();
  return 1;
}
