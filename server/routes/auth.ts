import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_HEADER, XSRF_COOKIE, type LoginRequest, type User } from '../../core/api/auth.js';
import { deviceCookie, isKnownDevice } from '../auth/device-cookie.js';
import { ACCOUNT_CAP_FAILURES, accountDelayMs, addressKey, type Attempt, type LockoutPolicy } from '../auth/lockout.js';
import { hashNeedsUpdate, hashPassword, verifyPassword, type ScryptParams } from '../auth/passwords.js';
import { RateLimiter } from '../auth/rate-limit.js';
import { hashToken, newToken, xsrfTokenFor } from '../auth/tokens.js';
import { HttpError } from '../errors.js';
import { callerOf } from '../plugins/authenticate.js';
import { accountFailures, beginLoginAttempt, clearLoginFailures, type FailureCount } from '../store/accounts/login-failures.js';
import type { AnyStore } from '../store/engine/types.js';
import { createSession, deleteExpiredSessions, deleteSession, keepNewestSessions } from '../store/accounts/sessions.js';
import { beginUnknownLoginAttempt, unknownNameFailures } from '../store/accounts/unknown-login-failures.js';
import { findUser, rehashPassword } from '../store/accounts/users.js';

export interface AuthRouteOptions {
  store: AnyStore;
  xsrfSecret: string;
  sessionIdleMs: number;
  sessionMaxAgeMs: number;
  lockout: LockoutPolicy;
  loginRateLimit: { max: number; windowMs: number };
  scrypt: ScryptParams;
  /** Mark the XSRF cookie Secure even on requests that did not come over HTTPS. */
  secureCookies: boolean;
  now: () => number;
}

/** Sessions one user may hold at once; a sign-in beyond ends the oldest. */
export const SESSIONS_PER_USER = 20;
const LOCKED = 'Account locked. Please contact an administrator.';
const INVALID = 'Invalid username or password';

const loginBody = {
  type: 'object',
  required: ['username', 'password'],
  additionalProperties: true,
  properties: { username: { type: 'string', maxLength: 200 }, password: { type: 'string', maxLength: 1024 } },
} as const;

export function registerAuthRoutes(app: FastifyInstance, options: AuthRouteOptions): void {
  const { lockout } = options;
  const limiter = new RateLimiter(options.store, 'login', options.loginRateLimit.max, options.loginRateLimit.windowMs);
  // Verified against when the user does not exist or is locked, so every answer costs one scrypt.
  const dummyHash = hashPassword('not a password of anyone', options.scrypt);

  const xsrfCookie = (request: FastifyRequest, reply: FastifyReply, sessionHash: string | null): void => {
    const value = sessionHash ? xsrfTokenFor(options.xsrfSecret, sessionHash) : '';
    // No Max-Age while signed in: the session slides on every call, and the server decides
    // when it ends; a cookie with its own clock would expire under a live session.
    const attributes = ['Path=/', 'SameSite=Strict', ...(sessionHash ? [] : ['Max-Age=0'])];
    // request.protocol reads X-Forwarded-Proto only from a trusted proxy.
    if (options.secureCookies || request.protocol === 'https') attributes.push('Secure');
    // Readable by the page on purpose: the UI echoes it in X-XSRF-TOKEN (docs/api.md#sign-in).
    reply.header('set-cookie', `${XSRF_COOKIE}=${value}; ${attributes.join('; ')}`);
  };

  /** The answer to an attempt that failed or was not admitted. */
  const refusal = (reply: FastifyReply, attempt: Attempt, now: number): HttpError => {
    if (attempt.admitted && attempt.remaining > 0) return new HttpError(401, INVALID, { attemptsRemaining: attempt.remaining });
    const until = attempt.admitted ? attempt.next.locked_until! : attempt.lockedUntil;
    reply.header('retry-after', String(Math.max(1, Math.ceil((until - now) / 1000))));
    return new HttpError(423, LOCKED, { attemptsRemaining: 0 });
  };

  const slowDownWhenAttacked = async (request: FastifyRequest, username: string, failures: number, knownDevice: boolean): Promise<void> => {
    const delay = knownDevice ? 0 : accountDelayMs(failures);
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
    await verifyPassword('not a password of anyone', await dummyHash);
    return new HttpError(429, `Too many failed sign-ins to this account from many addresses. Sign in from a browser you have signed in from before, or try again in ${Math.ceil(seconds / 60)} minutes.`);
  };

  // The one body anyone may send: a name and a password fit in 64 KB, and nothing bigger is read.
  app.post<{ Body: LoginRequest }>('/api/auth/login', { bodyLimit: 64 * 1024, schema: { body: loginBody }, config: { auth: { access: 'public' } } }, async (request, reply) => {
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
      await verifyPassword(password, await dummyHash);
      throw refusal(reply, attempt, now);
    }
    const { attempt, accountFailures: failures } = await beginLoginAttempt(options.store, user.id, address, now, lockout);
    await slowDownWhenAttacked(request, user.username, failures, knownDevice);
    if (!attempt.admitted) {
      // Locked means locked, even with the right password, but only for this address.
      await verifyPassword(password, await dummyHash);
      throw refusal(reply, attempt, now);
    }
    if (!(await verifyPassword(password, user.password_hash))) throw refusal(reply, attempt, now);
    await clearLoginFailures(options.store, user.id, address);
    // A hash of other settings than the server's costs another time to check than an unknown
    // name's: the time would tell which accounts exist. The password is at hand: re-hash it.
    if (hashNeedsUpdate(user.password_hash, options.scrypt)) await rehashPassword(options.store, user.id, user.password_hash, await hashPassword(password, options.scrypt));
    const token = newToken();
    const sessionToken = newToken();
    const sessionHash = hashToken(sessionToken);
    const expiresAt = now + Math.min(options.sessionIdleMs, options.sessionMaxAgeMs);
    await createSession(options.store, { tokenHash: hashToken(token), sessionHash, userId: user.id, expiresAt }, now);
    // Nothing else removes sessions that ended: each sign-in clears them, and bounds the user's.
    await deleteExpiredSessions(options.store, now, options.sessionMaxAgeMs);
    await keepNewestSessions(options.store, user.id, SESSIONS_PER_USER);
    xsrfCookie(request, reply, sessionHash);
    reply.header('set-cookie', deviceCookie(options.xsrfSecret, user.id, options.secureCookies || request.protocol === 'https'));
    const publicUser: User = { id: user.id, username: user.username, role: user.role };
    return { token, sessionToken, user: publicUser };
  });

  app.get('/api/auth/me', { config: { auth: { access: 'member' } } }, async (request, reply) => {
    const caller = callerOf(request);
    // Re-issued so a page whose cookie was cleared can still make changes.
    if (caller.kind === 'session') xsrfCookie(request, reply, caller.session.session_hash);
    return { user: caller.user };
  });

  app.post('/api/auth/logout', { config: { auth: { access: 'member' } } }, async (request, reply) => {
    const caller = callerOf(request);
    const header = request.headers[SESSION_HEADER];
    if (caller.kind !== 'session') throw new HttpError(400, 'API tokens have no session to end: revoke the token instead');
    // The calling session always ends; the one x-session-token names too, if it is the user's.
    await deleteSession(options.store, caller.session.session_hash, caller.user.id);
    if (typeof header === 'string' && header !== '') await deleteSession(options.store, hashToken(header), caller.user.id);
    xsrfCookie(request, reply, null);
    return { success: true };
  });
}
