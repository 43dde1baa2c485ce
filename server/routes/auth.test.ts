import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, PASSWORD, signIn, TEST_SCRYPT, type TestApp } from '../../fixtures/testing/app.js';
import { SESSIONS_PER_USER } from './auth.js';
import { DEFAULT_SCRYPT, hashNeedsUpdate, hashPassword, unmatchableHash, verifyPassword } from '../auth/passwords.js';
import { hashToken } from '../auth/tokens.js';

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(() => t.close());

const login = (username: string, password: string, ip = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password }, remoteAddress: ip });

describe('POST /api/auth/login', () => {
  it('answers token, sessionToken and user, stores only hashes, and sets a session-bound XSRF cookie', async () => {
    const res = await login('rita', PASSWORD);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['sessionToken', 'token', 'user']);
    expect(body.user).toEqual({ id: expect.any(Number), username: 'rita', role: 'reviewer' });
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const row = (await t.store.sql.get('SELECT token_hash, session_hash FROM sessions')) as { token_hash: string; session_hash: string };
    expect(row).toEqual({ token_hash: hashToken(body.token), session_hash: hashToken(body.sessionToken) });
    expect(JSON.stringify(await t.store.sql.all('SELECT * FROM sessions'))).not.toContain(body.token);
    const cookie = res.cookies.find((c) => c.name === 'XSRF-TOKEN')!;
    expect(cookie).toMatchObject({ path: '/', sameSite: 'Strict' });
    expect(cookie.httpOnly).toBeUndefined();
    // Another session of the same user gets another XSRF token.
    expect((await signIn(t.app, 'rita')).xsrf).not.toBe(cookie.value);
  });

  it('counts failures, says how many attempts remain, then locks the account for that address', async () => {
    const answers = [];
    for (let i = 0; i < 6; i++) {
      const res = await login('max', 'wrong password');
      answers.push([res.statusCode, res.json()]);
    }
    expect(answers).toEqual([
      [401, { error: 'Invalid username or password', attemptsRemaining: 4 }],
      [401, { error: 'Invalid username or password', attemptsRemaining: 3 }],
      [401, { error: 'Invalid username or password', attemptsRemaining: 2 }],
      [401, { error: 'Invalid username or password', attemptsRemaining: 1 }],
      [423, { error: 'Account locked. Please contact an administrator.', attemptsRemaining: 0 }],
      [423, { error: 'Account locked. Please contact an administrator.', attemptsRemaining: 0 }],
    ]);
    // Locked means locked, even with the right password, from that address.
    expect((await login('max', PASSWORD)).statusCode).toBe(423);
    expect(await t.store.sql.all('SELECT address, failures FROM login_failures')).toEqual([{ address: '127.0.0.1', failures: 5 }]);
    expect((await login('max', PASSWORD, '10.0.0.9')).statusCode).toBe(200);
  });

  it('a success resets the failure count', async () => {
    await login('max', 'wrong password');
    await login('max', 'wrong password');
    expect((await login('max', PASSWORD)).statusCode).toBe(200);
    expect((await login('max', 'wrong password')).json().attemptsRemaining).toBe(4);
  });

  it('an unknown username gets the same answers, in the same sequence', async () => {
    const known = [];
    const unknown = [];
    for (let i = 0; i < 5; i++) {
      const a = await login('max', 'nope nope', '10.0.0.1');
      const b = await login('nobody', 'nope nope', '10.0.0.2');
      known.push([a.statusCode, a.json()]);
      unknown.push([b.statusCode, b.json()]);
    }
    expect(unknown).toEqual(known);
  });

  it('rate-limits sign-in per address before checking any password', async () => {
    const codes = [];
    for (let i = 0; i < 11; i++) codes.push((await login(`user${i}`, 'whatever1', '10.9.9.9')).statusCode);
    expect(codes.slice(0, 10).every((c) => c === 401)).toBe(true);
    const limited = await login('rita', PASSWORD, '10.9.9.9');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toMatch(/^Too many sign-in attempts\. Try again in \d+ seconds\.$/);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    // Another address is not affected.
    expect((await login('rita', PASSWORD, '10.9.9.10')).statusCode).toBe(200);
  });

  it('refuses a blank username or password and a malformed body', async () => {
    expect((await login(' ', PASSWORD)).json()).toEqual({ error: 'Please enter both username and password.' });
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'rita' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/password/);
  });
});

describe('sessions', () => {
  it('GET /api/auth/me answers the user of a bearer token', async () => {
    const s = await signIn(t.app, 'admin');
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${s.token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user: { id: expect.any(Number), username: 'admin', role: 'admin' } });
  });

  it('401 without a token, with a forged one, after logout and after expiry', async () => {
    let clock = Date.now();
    await t.close();
    t = await buildTestApp({ now: () => clock, sessionIdleMs: 60 * 60 * 1000 });
    const me = (token?: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: token ? { authorization: `Bearer ${token}` } : {} });
    expect((await me()).statusCode).toBe(401);
    expect((await me()).json()).toEqual({ error: 'Authentication required' });
    expect((await me('forged-token-value')).statusCode).toBe(401);

    const s = await signIn(t.app, 'max');
    expect((await me(s.token)).statusCode).toBe(200);
    // Activity pushes expiry out; an hour of silence ends the session.
    clock += 50 * 60 * 1000;
    expect((await me(s.token)).statusCode).toBe(200);
    clock += 50 * 60 * 1000;
    expect((await me(s.token)).statusCode).toBe(200);
    clock += 61 * 60 * 1000;
    expect((await me(s.token)).statusCode).toBe(401);

    const s2 = await signIn(t.app, 'max');
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { ...s2.headers, 'x-session-token': s2.sessionToken } });
    expect(out.statusCode).toBe(200);
    expect(out.cookies.find((c) => c.name === 'XSRF-TOKEN')?.maxAge).toBe(0);
    expect((await me(s2.token)).statusCode).toBe(401);
  });

  it('logout always ends the calling session, whatever x-session-token says', async () => {
    const one = await signIn(t.app, 'max');
    const two = await signIn(t.app, 'max');
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { ...one.headers, 'x-session-token': 'garbage' } });
    expect(res.statusCode).toBe(200);
    const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
    expect((await me(one.token)).statusCode).toBe(401);
    expect((await me(two.token)).statusCode).toBe(200);
  });

  it('logout needs the XSRF header like every state-changing session call', async () => {
    const s = await signIn(t.app, 'max');
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { authorization: `Bearer ${s.token}`, 'x-session-token': s.sessionToken } });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('Missing or invalid XSRF token: reload the page and try again');
  });
});

describe('what a sign-in tidies', () => {
  it('re-hashes a password made with other scrypt settings under the server’s, so its timing cannot tell the account exists', async () => {
    await t.store.sql.run(`UPDATE users SET password_hash = @hash WHERE username = 'rita'`, { hash: await hashPassword(PASSWORD, { N: 2048, r: 8, p: 1 }) });
    expect((await login('rita', PASSWORD)).statusCode).toBe(200);
    const stored = (await t.store.sql.value<string>(`SELECT password_hash FROM users WHERE username = 'rita'`))!;
    expect(stored).toMatch(new RegExp(`^scrypt\\$${TEST_SCRYPT.N}\\$8\\$1\\$`));
    expect(await verifyPassword(PASSWORD, stored)).toBe(true);
    // A wrong password changes nothing.
    await t.store.sql.run(`UPDATE users SET password_hash = @hash WHERE username = 'max'`, { hash: await hashPassword(PASSWORD, { N: 2048, r: 8, p: 1 }) });
    expect((await login('max', 'not the password')).statusCode).toBe(401);
    expect(await t.store.sql.value<string>(`SELECT password_hash FROM users WHERE username = 'max'`)).toMatch(/^scrypt\$2048\$/);
  });

  it('deletes ended sessions and keeps each user’s newest ones', async () => {
    const rita = (await t.store.sql.value<number>(`SELECT id FROM users WHERE username = 'rita'`))!;
    await t.store.sql.run(
      `INSERT INTO sessions (token_hash, session_hash, user_id, created_at, last_seen_at, expires_at) VALUES ('old-t', 'old-s', @rita, 1, 1, 2)`,
      { rita },
    );
    // From several addresses: one address's sign-ins are rate-limited.
    for (let i = 0; i < SESSIONS_PER_USER + 3; i++) expect((await login('rita', PASSWORD, `127.0.1.${i}`)).statusCode).toBe(200);
    expect(await t.store.sql.value<number>(`SELECT count(*) AS n FROM sessions WHERE session_hash = 'old-s'`)).toBe(0);
    expect(await t.store.sql.value<number>(`SELECT count(*) AS n FROM sessions WHERE user_id = @rita`, { rita })).toBe(SESSIONS_PER_USER);
  });
});

describe('passwords', () => {
  it('are scrypt hashes at OWASP strength by default, salted, and verify', async () => {
    const a = await hashPassword('a long password');
    const b = await hashPassword('a long password');
    expect(a).toMatch(new RegExp(`^scrypt\\$${DEFAULT_SCRYPT.N}\\$8\\$1\\$`));
    expect(a).not.toBe(b);
    expect(await verifyPassword('a long password', a)).toBe(true);
    expect(await verifyPassword('a long passworD', a)).toBe(false);
  });

  it('an unmatchable hash has the server\'s settings and the shape of a real one, so checking it costs the same scrypt', async () => {
    const real = await hashPassword(PASSWORD, TEST_SCRYPT);
    const dummy = unmatchableHash(TEST_SCRYPT);
    expect(hashNeedsUpdate(dummy, TEST_SCRYPT)).toBe(false);
    expect(dummy.split('$').map((part) => part.length)).toEqual(real.split('$').map((part) => part.length));
    expect(dummy).not.toBe(unmatchableHash(TEST_SCRYPT));
    expect(await verifyPassword(PASSWORD, dummy)).toBe(false);
    expect(await verifyPassword('', dummy)).toBe(false);
  });
});
