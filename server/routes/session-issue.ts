import type { FastifyReply, FastifyRequest } from 'fastify';
import { XSRF_COOKIE, type LoginResponse, type User } from '../../core/api/auth.js';
import { hashToken, newToken, xsrfTokenFor } from '../auth/tokens.js';
import type { AnyStore } from '../store/engine/types.js';
import { createSession, deleteExpiredSessions, keepNewestSessions } from '../store/accounts/sessions.js';

/** Sessions one user may hold at once; a sign-in beyond ends the oldest. */
export const SESSIONS_PER_USER = 20;

export interface SessionPolicy {
  store: AnyStore;
  xsrfSecret: string;
  sessionIdleMs: number;
  sessionMaxAgeMs: number;
  /** Mark cookies Secure even on requests that did not come over HTTPS. */
  secureCookies: boolean;
  now: () => number;
}

/** Whether a cookie set on this answer is marked Secure (request.protocol reads X-Forwarded-Proto only from a trusted proxy). */
export function secureCookie(request: FastifyRequest, policy: Pick<SessionPolicy, 'secureCookies'>): boolean {
  return policy.secureCookies || request.protocol === 'https';
}

export function setXsrfCookie(request: FastifyRequest, reply: FastifyReply, sessionHash: string | null, policy: SessionPolicy): void {
  const value = sessionHash ? xsrfTokenFor(policy.xsrfSecret, sessionHash) : '';
  // No Max-Age while signed in: the session slides on every call, and the server decides
  // when it ends; a cookie with its own clock would expire under a live session.
  const attributes = ['Path=/', 'SameSite=Strict', ...(sessionHash ? [] : ['Max-Age=0'])];
  if (secureCookie(request, policy)) attributes.push('Secure');
  // Readable by the page on purpose: the UI echoes it in X-XSRF-TOKEN (docs/api.md#sign-in).
  reply.header('set-cookie', `${XSRF_COOKIE}=${value}; ${attributes.join('; ')}`);
}

/**
 * A new session for a user who proved who they are, by password or through the identity
 * provider: the same tokens, cookie and bounds either way.
 */
export async function issueSession(request: FastifyRequest, reply: FastifyReply, user: User, policy: SessionPolicy): Promise<LoginResponse> {
  const now = policy.now();
  const token = newToken();
  const sessionToken = newToken();
  const sessionHash = hashToken(sessionToken);
  const expiresAt = now + Math.min(policy.sessionIdleMs, policy.sessionMaxAgeMs);
  await createSession(policy.store, { tokenHash: hashToken(token), sessionHash, userId: user.id, expiresAt }, now);
  // Nothing else removes sessions that ended: each sign-in clears them, and bounds the user's.
  await deleteExpiredSessions(policy.store, now, policy.sessionMaxAgeMs);
  await keepNewestSessions(policy.store, user.id, SESSIONS_PER_USER);
  setXsrfCookie(request, reply, sessionHash, policy);
  return { token, sessionToken, user: { id: user.id, username: user.username, role: user.role } };
}
