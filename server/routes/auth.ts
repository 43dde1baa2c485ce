import type { FastifyInstance, FastifyReply } from 'fastify';
import { SESSION_HEADER, XSRF_COOKIE, type LoginRequest, type User } from '../../core/api/auth.js';
import { hashPassword, verifyPassword, type ScryptParams } from '../auth/passwords.js';
import { RateLimiter } from '../auth/rate-limit.js';
import { hashToken, newToken, xsrfTokenFor } from '../auth/tokens.js';
import { HttpError } from '../errors.js';
import { callerOf } from '../plugins/authenticate.js';
import type { Store } from '../store/open.js';
import { createSession, deleteSession } from '../store/sessions.js';
import { findUser, recordFailedLogin, resetFailedLogins } from '../store/users.js';

export interface AuthRouteOptions {
  store: Store;
  xsrfSecret: string;
  sessionIdleMs: number;
  maxFailedLogins: number;
  loginRateLimit: { max: number; windowMs: number };
  scrypt: ScryptParams;
  secureCookies: boolean;
  now: () => number;
}

const LOCKED = 'Account locked. Please contact an administrator.';
const INVALID = 'Invalid username or password';

const loginBody = {
  type: 'object',
  required: ['username', 'password'],
  additionalProperties: true,
  properties: { username: { type: 'string', maxLength: 200 }, password: { type: 'string', maxLength: 1024 } },
} as const;

export function registerAuthRoutes(app: FastifyInstance, options: AuthRouteOptions): void {
  const limiter = new RateLimiter(options.loginRateLimit.max, options.loginRateLimit.windowMs);
  // Unknown usernames count failures too, so their answers match a real account's, down to
  // the lockout; kept in memory and bounded.
  const unknownFailures = new Map<string, number>();
  // Verified against when the user does not exist, so both cost one scrypt.
  const dummyHash = hashPassword('not a password of anyone', options.scrypt);

  const xsrfCookie = (reply: FastifyReply, sessionHash: string | null): void => {
    const value = sessionHash ? xsrfTokenFor(options.xsrfSecret, sessionHash) : '';
    // No Max-Age while signed in: the session slides on every call, and the server decides
    // when it ends; a cookie with its own clock would expire under a live session.
    const attributes = ['Path=/', 'SameSite=Strict', ...(sessionHash ? [] : ['Max-Age=0'])];
    if (options.secureCookies) attributes.push('Secure');
    // Readable by the page on purpose: the UI echoes it in X-XSRF-TOKEN (SPEC.md section 7).
    reply.header('set-cookie', `${XSRF_COOKIE}=${value}; ${attributes.join('; ')}`);
  };

  app.post<{ Body: LoginRequest }>('/api/auth/login', { schema: { body: loginBody }, config: { auth: { access: 'public' } } }, async (request, reply) => {
    const wait = limiter.hit(request.ip, options.now());
    if (wait > 0) {
      reply.header('retry-after', String(wait));
      throw new HttpError(429, `Too many sign-in attempts. Try again in ${wait} seconds.`);
    }
    const username = request.body.username.trim();
    const { password } = request.body;
    if (username === '' || password === '') throw new HttpError(400, 'Please enter both username and password.');

    const user = await findUser(options.store, username);
    if (!user) {
      await verifyPassword(password, await dummyHash);
      const key = username.toLowerCase();
      const failures = Math.min((unknownFailures.get(key) ?? 0) + 1, options.maxFailedLogins);
      if (unknownFailures.size > 10_000) unknownFailures.clear();
      unknownFailures.set(key, failures);
      const remaining = options.maxFailedLogins - failures;
      throw new HttpError(remaining === 0 ? 423 : 401, remaining === 0 ? LOCKED : INVALID, { attemptsRemaining: remaining });
    }
    if (user.locked) {
      await verifyPassword(password, await dummyHash);
      throw new HttpError(423, LOCKED, { attemptsRemaining: 0 });
    }
    if (!(await verifyPassword(password, user.password_hash))) {
      const remaining = await recordFailedLogin(options.store, user.id, options.maxFailedLogins);
      throw new HttpError(remaining === 0 ? 423 : 401, remaining === 0 ? LOCKED : INVALID, { attemptsRemaining: remaining });
    }
    await resetFailedLogins(options.store, user.id);
    const token = newToken();
    const sessionToken = newToken();
    const sessionHash = hashToken(sessionToken);
    const now = options.now();
    await createSession(options.store, { tokenHash: hashToken(token), sessionHash, userId: user.id, expiresAt: now + options.sessionIdleMs }, now);
    xsrfCookie(reply, sessionHash);
    const publicUser: User = { id: user.id, username: user.username, role: user.role };
    return { token, sessionToken, user: publicUser };
  });

  app.get('/api/auth/me', { config: { auth: { access: 'member' } } }, async (request, reply) => {
    const caller = callerOf(request);
    // Re-issued so a page whose cookie was cleared can still make changes.
    if (caller.kind === 'session') xsrfCookie(reply, caller.session.session_hash);
    return { user: caller.user };
  });

  app.post('/api/auth/logout', { config: { auth: { access: 'member' } } }, async (request, reply) => {
    const caller = callerOf(request);
    const header = request.headers[SESSION_HEADER];
    if (caller.kind !== 'session') throw new HttpError(400, 'API tokens have no session to end: revoke the token instead');
    // The calling session always ends; the one x-session-token names too, if it is the user's.
    await deleteSession(options.store, caller.session.session_hash, caller.user.id);
    if (typeof header === 'string' && header !== '') await deleteSession(options.store, hashToken(header), caller.user.id);
    xsrfCookie(reply, null);
    return { success: true };
  });
}
