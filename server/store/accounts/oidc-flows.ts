import type { AnyStore } from '../engine/types.js';

/** What the server keeps of a sign-in at the identity provider while the browser is away. */
export interface OidcFlow {
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
  /** The page of the UI to return to: a path of this origin, checked before it is stored. */
  returnTo: string;
}

export async function saveOidcFlow(store: AnyStore, flowHash: string, flow: OidcFlow, now: number, ttlMs: number): Promise<void> {
  // Every start clears the flows that ended: nothing else would, and anyone may start one.
  await store.db.deleteFrom('oidc_flows').where('expires_at', '<=', now).execute();
  await store.db
    .insertInto('oidc_flows')
    .values({
      flow_hash: flowHash,
      stage: 'pending',
      state: flow.state,
      nonce: flow.nonce,
      code_verifier: flow.codeVerifier,
      redirect_uri: flow.redirectUri,
      return_to: flow.returnTo,
      user_id: null,
      created_at: now,
      expires_at: now + ttlMs,
    })
    .execute();
}

/**
 * Takes a pending flow for its callback, once: the row moves to 'exchanging' in the same
 * statement, so a second callback with the same cookie (a replay, a double click) finds nothing.
 */
export async function claimOidcFlow(store: AnyStore, flowHash: string, now: number): Promise<OidcFlow | null> {
  const row = await store.db
    .updateTable('oidc_flows')
    .set({ stage: 'exchanging' })
    .where('flow_hash', '=', flowHash)
    .where('stage', '=', 'pending')
    .where('expires_at', '>', now)
    .returning(['state', 'nonce', 'code_verifier', 'redirect_uri', 'return_to'])
    .executeTakeFirst();
  if (!row) return null;
  return { state: row.state, nonce: row.nonce, codeVerifier: row.code_verifier, redirectUri: row.redirect_uri, returnTo: row.return_to };
}

/** The provider vouched for this account: the page may exchange the flow for a session, soon. */
export async function completeOidcFlow(store: AnyStore, flowHash: string, userId: number, now: number, ttlMs: number): Promise<void> {
  await store.db.updateTable('oidc_flows').set({ stage: 'done', user_id: userId, expires_at: now + ttlMs }).where('flow_hash', '=', flowHash).where('stage', '=', 'exchanging').execute();
}

export async function dropOidcFlow(store: AnyStore, flowHash: string): Promise<void> {
  await store.db.deleteFrom('oidc_flows').where('flow_hash', '=', flowHash).execute();
}

/** The account of a finished flow, and where to go; the row is deleted as it is read (once). */
export async function takeFinishedOidcFlow(store: AnyStore, flowHash: string, now: number): Promise<{ userId: number; returnTo: string } | null> {
  const row = await store.db
    .deleteFrom('oidc_flows')
    .where('flow_hash', '=', flowHash)
    .where('stage', '=', 'done')
    .where('expires_at', '>', now)
    .returning(['user_id', 'return_to'])
    .executeTakeFirst();
  if (!row || row.user_id === null) return null;
  return { userId: row.user_id, returnTo: row.return_to };
}
