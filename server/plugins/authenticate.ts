import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Role, type User, XSRF_HEADER } from '../../core/api/auth.js';
import { addressKey } from '../auth/lockout.js';
import { API_TOKEN_PREFIX, hashToken, safeEqual, xsrfTokenFor } from '../auth/tokens.js';
import { forbidden, unauthorized } from '../errors.js';
import { findApiToken, touchApiToken, type TokenScope } from '../store/accounts/api-tokens.js';
import type { AnyStore } from '../store/engine/types.js';
import { findSession, touchSession, type SessionRecord } from '../store/accounts/sessions.js';

/** Who may call a route: nobody signed in, or a signed-in user of at least this role. */
export type Access = 'public' | Role;

/** `apiToken` lets an API token (no session, no XSRF) with that scope call the route. */
export interface RouteAccess {
  access: Access;
  apiToken?: Exclude<TokenScope, 'approve'>;
}

export type Caller = { kind: 'session'; user: User; session: SessionRecord } | { kind: 'api-token'; user: User; tokenId: number; tokenName: string; scopes: readonly TokenScope[] };

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
  interface FastifyContextConfig {
    auth?: RouteAccess;
  }
}

const DEFAULT_API_RULE: RouteAccess = { access: 'member' };
const RANK: Record<Role, number> = { member: 1, reviewer: 2, admin: 3 };
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
// Writing last_seen on every call would make every read a write; a minute is precise enough.
const TOUCH_AFTER_MS = 60_000;

export interface AuthOptions {
  store: AnyStore;
  xsrfSecret: string;
  sessionIdleMs: number;
  /** However active, a session ends this long after sign-in. */
  sessionMaxAgeMs: number;
  now: () => number;
  /**
   * Password sign-in is on (the default). When it is off, a session a password gave before is
   * refused too: turning passwords off is how an admin makes everyone go through the provider.
   */
  localLogin?: boolean;
}

/**
 * Authenticates before the body is read (so an anonymous 100 MB upload is refused at once),
 * then enforces the route's role and, for session calls that change state, the XSRF token.
 */
export function registerAuthentication(app: FastifyInstance, options: AuthOptions): void {
  app.decorateRequest('caller', null);
  app.addHook('onRequest', async (request) => {
    // A route that forgot to say who may call it is closed, not open.
    const rule = request.routeOptions.config?.auth ?? (request.url.startsWith('/api/') ? DEFAULT_API_RULE : null);
    if (!rule || rule.access === 'public') return;
    const caller = await identify(request, options);
    if (!caller) throw unauthorized();
    if (caller.kind === 'api-token' && !rule.apiToken) throw forbidden('API tokens can only upload results and read them; sign in to do this');
    if (caller.kind === 'api-token' && rule.apiToken && !caller.scopes.includes(rule.apiToken)) {
      throw forbidden(`This API token may ${caller.scopes.join(' and ') || 'do nothing'}, not ${rule.apiToken}: create one with \`flakeboard token create NAME --scope ${[...new Set([...caller.scopes, rule.apiToken])].join(',')}\``);
    }
    if (RANK[caller.user.role] < RANK[rule.access]) throw forbidden(`This action needs the ${rule.access} role; you are signed in as a ${caller.user.role}`);
    if (caller.kind === 'session' && !SAFE_METHODS.has(request.method)) {
      const sent = request.headers[XSRF_HEADER];
      const expected = xsrfTokenFor(options.xsrfSecret, caller.session.session_hash);
      if (typeof sent !== 'string' || !safeEqual(sent, expected)) throw forbidden('Missing or invalid XSRF token: reload the page and try again');
    }
    request.caller = caller;
  });
}

async function identify(request: FastifyRequest, options: AuthOptions): Promise<Caller | null> {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  if (!match) return null;
  const token = match[1]!;
  const tokenHash = hashToken(token);
  if (token.startsWith(API_TOKEN_PREFIX)) {
    const apiToken = await findApiToken(options.store, tokenHash);
    if (!apiToken) return null;
    if (apiToken.expires_at !== null && apiToken.expires_at <= options.now()) {
      throw unauthorized(`This API token expired on ${new Date(apiToken.expires_at).toISOString().slice(0, 10)}: create a new one with \`flakeboard token create\``);
    }
    if (apiToken.last_used_at === null || options.now() - apiToken.last_used_at > TOUCH_AFTER_MS) {
      void bestEffort(request, () => touchApiToken(options.store, apiToken.id, options.now()));
    }
    return { kind: 'api-token', user: apiToken.user, tokenId: apiToken.id, tokenName: apiToken.name, scopes: apiToken.scopes };
  }
  const now = options.now();
  const session = await findSession(options.store, tokenHash, now, options.sessionMaxAgeMs);
  if (!session) return null;
  if (options.localLogin === false && !session.sso) return null;
  if (now - session.last_seen_at > TOUCH_AFTER_MS) {
    const expiresAt = Math.min(now + options.sessionIdleMs, session.created_at + options.sessionMaxAgeMs);
    // Not awaited: a touch that waits for the write lock must not hold up the request.
    void bestEffort(request, () => touchSession(options.store, session.id, now, expiresAt));
  }
  return { kind: 'session', user: session.user, session };
}

/**
 * Bookkeeping writes must not fail a read when the database cannot be written, nor hold it while
 * another writer (an upload being stored, a CLI import) has the lock: not awaited, they wait for
 * the lock on their own (store/engine/waiting-driver.ts) and the request goes on.
 */
async function bestEffort(request: FastifyRequest, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    request.log.warn({ err: error }, 'could not record the use of a token');
  }
}

/** The caller of a route whose rule is not public (the hook above guarantees one). */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw unauthorized();
  return request.caller;
}

/**
 * Who is asking, for sharing what callers share (the analytics worker's queue and cache, the AI
 * analysis): a token by itself, a signed-in user by its account (all its sessions are one caller),
 * anyone else by address.
 */
export function callerKey(request: FastifyRequest): string {
  const caller = request.caller;
  if (caller?.kind === 'api-token') return `token:${caller.tokenId}`;
  if (caller) return `user:${caller.user.id}`;
  return `address:${addressKey(request.ip)}`;
}
