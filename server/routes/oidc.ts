import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SsoErrorCode, SsoSessionResponse } from '../../core/api/auth.js';
import { addressKey } from '../auth/lockout.js';
import type { OidcClient } from '../auth/oidc-client.js';
import { OidcFlowError } from '../auth/oidc-flow-error.js';
import { providerOwnsRoles, roleFor, usernameFrom, type OidcSettings } from '../auth/oidc-settings.js';
import { RateLimiter } from '../auth/rate-limit.js';
import { hashToken, newToken } from '../auth/tokens.js';
import { HttpError } from '../errors.js';
import { claimOidcFlow, completeOidcFlow, dropOidcFlow, saveOidcFlow, takeFinishedOidcFlow } from '../store/accounts/oidc-flows.js';
import { createSsoUser, endSsoSessions, findUserById, findUserByIdentity, syncSsoRole } from '../store/accounts/oidc-users.js';
import { issueSession, secureCookie, type SessionPolicy } from './session-issue.js';
import { auditRequest } from '../audit.js';

export const OIDC_START_PATH = '/api/auth/oidc/start';
export const OIDC_CALLBACK_PATH = '/api/auth/oidc/callback';
const OIDC_SESSION_PATH = '/api/auth/oidc/session';

/** The browser's handle on its sign-in in progress; the flow itself is kept in the database. */
export const FLOW_COOKIE = 'flakeboard-sso';
/** Time to sign in at the provider (a password, a second factor, a consent screen). */
const FLOW_TTL_MS = 10 * 60_000;
/** Time from the provider's answer to the login page's exchange of it: a page load. */
const EXCHANGE_TTL_MS = 60_000;
const RETURN_MAX = 512;

export interface OidcRouteOptions extends SessionPolicy {
  oidc: OidcClient;
  settings: OidcSettings;
  /** The origin people's browsers use, when a proxy stands in front; else the request's own. */
  publicUrl: URL | null;
  startRateLimit: { max: number; windowMs: number };
}

/**
 * Sign-in through an OpenID provider (docs/single-sign-on.md): start sends the browser to the
 * provider with a new state, nonce and PKCE challenge; the callback checks the answer against
 * the flow its cookie names, once, and finds or makes the account; the login page then
 * exchanges the finished flow for the same session a password sign-in gives.
 */
export function registerOidcRoutes(app: FastifyInstance, options: OidcRouteOptions): void {
  const { oidc, settings } = options;
  const limiter = new RateLimiter(options.store, 'oidc', options.startRateLimit.max, options.startRateLimit.windowMs);
  const origin = (request: FastifyRequest): string => options.publicUrl?.origin ?? `${request.protocol}://${request.host}`;
  const loginPage = (query: string): string => `${options.publicUrl ? options.publicUrl.origin : ''}/#/login?${query}`;
  const failed = (request: FastifyRequest, reply: FastifyReply, code: SsoErrorCode, providerError: string | null = null): FastifyReply => {
    clearFlowCookie(request, reply);
    const query = new URLSearchParams({ sso_error: code, ...(providerError ? { provider_error: providerError } : {}) });
    return reply.redirect(loginPage(query.toString()), 302);
  };
  const flowCookie = (request: FastifyRequest, reply: FastifyReply, value: string, maxAgeS: number): void => {
    // HttpOnly: no script reads it. Lax: it comes back on the provider's redirect to the
    // callback (a top-level GET from another site), never on another site's POST.
    const attributes = [`Path=/api/auth/oidc`, 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAgeS}`];
    if (secureCookie(request, options) || options.publicUrl?.protocol === 'https:') attributes.push('Secure');
    reply.header('set-cookie', `${FLOW_COOKIE}=${value}; ${attributes.join('; ')}`);
  };
  const clearFlowCookie = (request: FastifyRequest, reply: FastifyReply): void => flowCookie(request, reply, '', 0);

  app.get<{ Querystring: { return?: string } }>(OIDC_START_PATH, { config: { auth: { access: 'public' } } }, async (request, reply) => {
    const now = options.now();
    const wait = await limiter.hit(addressKey(request.ip), now);
    if (wait > 0) {
      reply.header('retry-after', String(wait));
      throw new HttpError(429, `Too many sign-in attempts. Try again in ${wait} seconds.`);
    }
    const redirectUri = `${origin(request)}${OIDC_CALLBACK_PATH}`;
    let start;
    try {
      start = await oidc.start(redirectUri);
    } catch (error) {
      request.log.error({ err: error }, 'single sign-on: the OpenID provider cannot be used');
      return failed(request, reply, 'unreachable');
    }
    const flowId = newToken();
    await saveOidcFlow(options.store, hashToken(flowId), { state: start.state, nonce: start.nonce, codeVerifier: start.codeVerifier, redirectUri, returnTo: safeReturn(request.query.return) }, now, FLOW_TTL_MS);
    flowCookie(request, reply, flowId, FLOW_TTL_MS / 1000);
    return reply.redirect(start.url, 302);
  });

  app.get(OIDC_CALLBACK_PATH, { config: { auth: { access: 'public' } } }, async (request, reply) => {
    const now = options.now();
    const flowId = readCookie(request, FLOW_COOKIE);
    // No cookie, or a flow already used or ended: a replayed or forged callback, or a sign-in
    // finished in another browser. Nothing is sent to the provider.
    const flowHash = flowId ? hashToken(flowId) : null;
    const flow = flowHash ? await claimOidcFlow(options.store, flowHash, now) : null;
    if (!flowHash || !flow) {
      request.log.warn('single sign-on: a callback without a sign-in in progress was refused');
      return failed(request, reply, 'expired');
    }
    // The code is exchanged with the redirect URI the flow was started with, whatever Host this request names.
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    const callbackUrl = new URL(`${flow.redirectUri}${query}`);
    let identity;
    try {
      identity = await oidc.finish(callbackUrl, flow);
    } catch (error) {
      await dropOidcFlow(options.store, flowHash);
      if (!(error instanceof OidcFlowError)) throw error;
      request.log.warn({ reason: error.reason, detail: error.message }, 'single sign-on refused');
      // Only a callback with a sign-in of this browser in progress gets here: one per started flow, which is rate-limited.
      await auditRequest(options.store, request, { action: 'session.sign-in-failed', actor: { kind: 'user', id: null, name: null }, target: null, detail: { method: 'oidc', reason: error.reason, ...(error.providerError ? { providerError: error.providerError } : {}) }, at: now });
      return failed(request, reply, error.reason, error.providerError);
    }
    const role = roleFor(identity.claims, settings.roles);
    if (role === null) {
      await dropOidcFlow(options.store, flowHash);
      // The provider says this person may no longer sign in: the sessions it gave before end now, not at their expiry.
      const known = await findUserByIdentity(options.store, identity.issuer, identity.subject);
      const sessionsEnded = known ? await endSsoSessions(options.store, known.id) : 0;
      request.log.warn({ issuer: identity.issuer, subject: identity.subject, sessionsEnded }, 'single sign-on refused: not in an allowed group');
      await auditRequest(options.store, request, { action: 'session.sign-in-failed', actor: { kind: 'user', id: known?.id ?? null, name: known?.username ?? null }, target: known ? { type: 'user', id: known.id, label: known.username } : null, detail: { method: 'oidc', reason: 'not in an allowed group', subject: identity.subject, ...(known ? { sessionsEnded } : {}) }, at: now });
      return failed(request, reply, 'not-allowed');
    }
    let user = await findUserByIdentity(options.store, identity.issuer, identity.subject);
    if (user && providerOwnsRoles(settings.roles) && user.role !== role) {
      await syncSsoRole(options.store, user.id, role, now);
      request.log.info({ user: user.username, from: user.role, to: role }, 'single sign-on: role set from the provider\'s groups');
      await auditRequest(options.store, request, { action: 'user.role', actor: { kind: 'system', id: null, name: settings.displayName }, target: { type: 'user', id: user.id, label: user.username }, detail: { from: user.role, to: role, method: 'oidc' }, at: now });
      user = { ...user, role };
    }
    if (!user) {
      const name = usernameFrom(identity.claims, settings.usernameClaims, identity.subject);
      user = await createSsoUser(options.store, { issuer: identity.issuer, subject: identity.subject, name, role }, now);
      if (!user) {
        await dropOidcFlow(options.store, flowHash);
        request.log.error({ name }, 'single sign-on: no free account name for a new user');
        return failed(request, reply, 'no-account');
      }
      request.log.info({ user: user.username, role: user.role }, 'single sign-on: account created');
      await auditRequest(options.store, request, { action: 'user.add', actor: { kind: 'system', id: null, name: settings.displayName }, target: { type: 'user', id: user.id, label: user.username }, detail: { role: user.role, method: 'oidc' }, at: now });
    }
    await completeOidcFlow(options.store, flowHash, user.id, now, EXCHANGE_TTL_MS);
    return reply.redirect(loginPage('sso=done'), 302);
  });

  // The body is empty: everything comes from the HttpOnly cookie, which another site's POST never carries.
  app.post(OIDC_SESSION_PATH, { bodyLimit: 1024, config: { auth: { access: 'public' } } }, async (request, reply): Promise<SsoSessionResponse> => {
    const flowId = readCookie(request, FLOW_COOKIE);
    const finished = flowId ? await takeFinishedOidcFlow(options.store, hashToken(flowId), options.now()) : null;
    clearFlowCookie(request, reply);
    if (!finished) throw new HttpError(400, `This sign-in with ${settings.displayName} has expired or was already used. Please sign in again.`);
    const user = await findUserById(options.store, finished.userId);
    if (!user) throw new HttpError(400, 'The account of this sign-in no longer exists.');
    const session = await issueSession(request, reply, user, options);
    request.log.info({ user: user.username }, 'signed in with single sign-on');
    await auditRequest(options.store, request, { action: 'session.sign-in', actor: { kind: 'user', id: user.id, name: user.username }, target: { type: 'user', id: user.id, label: user.username }, detail: { method: 'oidc' }, at: options.now() });
    return { ...session, returnTo: finished.returnTo };
  });
}

/**
 * Where to go after signing in: a path of this UI (what RequireAuth remembered), never another
 * origin (`//host`, `/\host`), never the login page itself; anything else is the dashboard.
 */
export function safeReturn(value: unknown): string {
  if (typeof value !== 'string' || value.length > RETURN_MAX) return '/';
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\') || value.startsWith('/login')) return '/';
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return '/';
  return value;
}

function readCookie(request: FastifyRequest, name: string): string | null {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
    }
  }
  return null;
}
