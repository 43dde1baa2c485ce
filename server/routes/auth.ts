import { createHash } from 'node:crypto';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorAnswer } from '../../core/api/schemas/errors.js';
import * as s from '../../core/api/schemas/auth.js';
import { successAnswer } from '../../core/api/schemas/uploads.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_HEADER, type AuthMethodsResponse } from '../../core/api/auth.js';
import { deviceCookie, isKnownDevice } from '../auth/device-cookie.js';
import { ACCOUNT_CAP_FAILURES, accountDelayMs, addressKey, type Attempt, type LockoutPolicy } from '../auth/lockout.js';
import { hashNeedsUpdate, hashPassword, unmatchableHash, verifyPassword, type ScryptParams } from '../auth/passwords.js';
import { RateLimiter } from '../auth/rate-limit.js';
import { hashToken } from '../auth/tokens.js';
import { auditRequest } from '../audit.js';
import { HttpError } from '../errors.js';
import { OIDC_START_PATH } from './oidc.js';
import { callerOf } from '../plugins/authenticate.js';
import { accountFailures, beginLoginAttempt, clearLoginFailures, type FailureCount } from '../store/accounts/login-failures.js';
import type { AnyStore } from '../store/engine/types.js';
import { deleteSession } from '../store/accounts/sessions.js';
import { beginUnknownLoginAttempt, unknownNameFailures } from '../store/accounts/unknown-login-failures.js';
import { findUser, rehashPassword } from '../store/accounts/users.js';
import { issueSession, secureCookie, setXsrfCookie, type SessionPolicy } from './session-issue.js';

export { SESSIONS_PER_USER } from './session-issue.js';

export interface AuthRouteOptions extends SessionPolicy {
  store: AnyStore;
  lockout: LockoutPolicy;
  loginRateLimit: { max: number; windowMs: number };
  scrypt: ScryptParams;
  /** false: the password sign-in refuses everyone (single sign-on only). Default true. */
  localLogin?: boolean;
  /** The single sign-on button's provider name, when single sign-on is configured. */
  oidcName?: string | null;
  /** The account-wide delay's bound (lockout.ts accountDelayMs); default ACCOUNT_MAX_DELAY_MS. */
  accountMaxDelayMs?: number;
}
const LOCKED = 'Account locked. Please contact an administrator.';
const INVALID = 'Invalid username or password';

const tags = ['Sign-in'];

export function registerAuthRoutes(fastify: FastifyInstance, options: AuthRouteOptions): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { lockout } = options;
  const localLogin = options.localLogin ?? true;
  const oidcName = options.oidcName ?? null;
  const limiter = new RateLimiter(options.store, 'login', options.loginRateLimit.max, options.loginRateLimit.windowMs);
  // Verified against when the user does not exist or is locked, so every answer costs one scrypt.
  const dummyHash = unmatchableHash(options.scrypt);

  /** The answer to an attempt that failed or was not admitted. */
  const refusal = (reply: FastifyReply, attempt: Attempt, now: number): HttpError => {
    if (attempt.admitted && attempt.remaining > 0) return new HttpError(401, INVALID, { attemptsRemaining: attempt.remaining });
    const until = attempt.admitted ? attempt.next.locked_until! : attempt.lockedUntil;
    reply.header('retry-after', String(Math.max(1, Math.ceil((until - now) / 1000))));
    return new HttpError(423, LOCKED, { attemptsRemaining: 0 });
  };

  const slowDownWhenAttacked = async (request: FastifyRequest, username: string, failures: number, knownDevice: boolean): Promise<void> => {
    const delay = knownDevice ? 0 : accountDelayMs(failures, options.accountMaxDelayMs);
    if (delay === 0) return;
    // Many addresses are failing on this account: slow every attempt, longer the more they fail.
    request.log.warn({ user: username, accountFailures: failures, delayMs: delay }, 'sign-in failures on this account from many addresses: sign-ins slowed');
    await new Promise((resolve) => setTimeout(resolve, delay));
  };

  /**
   * Past the cap, an attempt from a browser that never signed in to the account is refused
   * before its password is read (and not counted), for a real name and an unknown one alike.
   */
  const capped = async (reply: FastifyReply, count: FailureCount, knownDevice: boolean, now: number): Promise<HttpError | null> => {
    if (knownDevice || count.failures < ACCOUNT_CAP_FAILURES) return null;
    const seconds = Math.max(1, Math.ceil((count.clearsAt - now) / 1000));
    reply.header('retry-after', String(seconds));
    // As long as a checked password takes, so the refusal says nothing a wrong password would not.
    await verifyPassword('not a password of anyone', dummyHash);
    return new HttpError(429, `Too many failed sign-ins to this account from many addresses. Sign in from a browser you have signed in from before, or try again in ${Math.ceil(seconds / 60)} minutes.`);
  };

  /**
   * A failed sign-in, for the audit trail. A name no account has is kept as the start of its
   * SHA-256, as unknown_login_failures keeps it: what people type as a name is sometimes their
   * password. An admin can still compare it with a name they suspect.
   */
  const auditFailure = (request: FastifyRequest, user: { id: number; username: string } | null, typed: string, reason: string): Promise<void> =>
    auditRequest(options.store, request, {
      action: 'session.sign-in-failed',
      actor: { kind: 'user', id: user?.id ?? null, name: user?.username ?? null },
      target: user ? { type: 'user', id: user.id, label: user.username } : null,
      detail: user ? { reason } : { reason, nameSha256: createHash('sha256').update(typed).digest('hex').slice(0, 16) },
      at: options.now(),
    });

  // The one body anyone may send: a name and a password fit in 64 KB, and nothing bigger is read.
  // What the login page offers: it asks before it draws the form (docs/api.md#sign-in).
  app.get('/api/auth/methods', {
    schema: { summary: 'How this server lets people sign in', tags, security: [], response: { 200: s.authMethodsResponse } },
    config: { auth: { access: 'public' } },
  }, async (): Promise<AuthMethodsResponse> => ({
    password: localLogin,
    sso: oidcName === null ? null : { name: oidcName, startUrl: OIDC_START_PATH },
  }));

  app.post('/api/auth/login', {
    bodyLimit: 64 * 1024,
    schema: {
      summary: 'Sign in with a password',
      tags,
      security: [],
      body: s.loginRequest,
      response: { 200: s.loginResponse, 400: errorAnswer, 401: s.loginRefusal, 403: errorAnswer, 423: s.loginRefusal, 429: errorAnswer },
    },
    config: { auth: { access: 'public' } },
  }, async (request, reply) => {
    if (!localLogin) throw new HttpError(403, `Password sign-in is turned off on this server: sign in with ${oidcName ?? 'single sign-on'}.`);
    const address = addressKey(request.ip);
    const wait = await limiter.hit(address, options.now());
    if (wait > 0) {
      reply.header('retry-after', String(wait));
      throw new HttpError(429, `Too many sign-in attempts. Try again in ${wait} seconds.`);
    }
    const username = request.body.username.trim();
    const { password } = request.body;
    if (username === '' || password === '') throw new HttpError(400, 'Please enter both username and password.');

    const now = options.now();
    const user = await findUser(options.store, username);
    // An unknown name has no device cookie: a name's answers must not tell whether it exists.
    const knownDevice = user !== null && isKnownDevice(options.xsrfSecret, request.headers.cookie, user.id);
    const cap = await capped(reply, user ? await accountFailures(options.store, user.id, now, lockout) : await unknownNameFailures(options.store, username, now, lockout), knownDevice, now);
    if (cap) throw cap;
    if (!user) {
      const { attempt, accountFailures: failures } = await beginUnknownLoginAttempt(options.store, username, address, now, lockout);
      await slowDownWhenAttacked(request, username, failures, false);
      await verifyPassword(password, dummyHash);
      await auditFailure(request, null, username, 'unknown user');
      throw refusal(reply, attempt, now);
    }
    const { attempt, accountFailures: failures } = await beginLoginAttempt(options.store, user.id, address, now, lockout);
    await slowDownWhenAttacked(request, user.username, failures, knownDevice);
    if (!attempt.admitted) {
      // Locked means locked, even with the right password, but only for this address.
      await verifyPassword(password, dummyHash);
      await auditFailure(request, user, username, 'locked');
      throw refusal(reply, attempt, now);
    }
    // An account made by single sign-on has no password hash: it costs the same scrypt as one that has.
    const local = user.password_hash.startsWith('scrypt$');
    if (!local) await verifyPassword(password, dummyHash);
    if (!local || !(await verifyPassword(password, user.password_hash))) {
      await auditFailure(request, user, username, local ? 'wrong password' : 'no password: signs in through single sign-on');
      throw refusal(reply, attempt, now);
    }
    await clearLoginFailures(options.store, user.id, address);
    // A hash of other settings than the server's costs another time to check than an unknown
    // name's: the time would tell which accounts exist. The password is at hand: re-hash it.
    if (hashNeedsUpdate(user.password_hash, options.scrypt)) await rehashPassword(options.store, user.id, user.password_hash, await hashPassword(password, options.scrypt));
    const answer = await issueSession(request, reply, { id: user.id, username: user.username, role: user.role }, options);
    // This browser has signed in: the account-wide delay and cap for guesses from elsewhere spare it.
    reply.header('set-cookie', deviceCookie(options.xsrfSecret, user.id, secureCookie(request, options)));
    await auditRequest(options.store, request, { action: 'session.sign-in', actor: { kind: 'user', id: user.id, name: user.username }, target: { type: 'user', id: user.id, label: user.username }, at: now });
    return answer;
  });

  app.get('/api/auth/me', { schema: { summary: 'The signed-in user', tags, response: { 200: s.meResponse } }, config: { auth: { access: 'member' } } }, async (request, reply) => {
    const caller = callerOf(request);
    // Re-issued so a page whose cookie was cleared can still make changes.
    if (caller.kind === 'session') setXsrfCookie(request, reply, caller.session.session_hash, options);
    return { user: caller.user };
  });

  app.post('/api/auth/logout', { schema: { summary: 'End the session', tags, response: { 200: successAnswer, 400: errorAnswer } }, config: { auth: { access: 'member' } } }, async (request, reply) => {
    const caller = callerOf(request);
    const header = request.headers[SESSION_HEADER];
    if (caller.kind !== 'session') throw new HttpError(400, 'API tokens have no session to end: revoke the token instead');
    // The calling session always ends; the one x-session-token names too, if it is the user's.
    await deleteSession(options.store, caller.session.session_hash, caller.user.id);
    if (typeof header === 'string' && header !== '') await deleteSession(options.store, hashToken(header), caller.user.id);
    setXsrfCookie(request, reply, null, options);
    await auditRequest(options.store, request, { action: 'session.sign-out', target: { type: 'user', id: caller.user.id, label: caller.user.username }, at: options.now() });
    return { success: true as const };
  });
}
