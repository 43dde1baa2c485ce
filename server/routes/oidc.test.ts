import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, PASSWORD, signIn, TEST_SCRYPT, type TestApp } from '../../fixtures/testing/app.js';
import { CookieBrowser, signInAtProvider, startTestProvider, type TestProvider } from '../../fixtures/testing/openid-provider.js';
import { buildApp } from '../app.js';
import { OidcClient } from '../auth/oidc-client.js';
import { oidcSettings, type RoleMapping } from '../auth/oidc-settings.js';
import { API_TOKEN_PREFIX, hashToken, newToken } from '../auth/tokens.js';
import { createApiToken } from '../store/accounts/api-tokens.js';
import { findUser } from '../store/accounts/users.js';
import { FLOW_COOKIE } from './oidc.js';

let provider: TestProvider | null = null;
let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  await provider?.close();
  t = null;
  provider = null;
});

interface Setup {
  base: string;
  t: TestApp;
  provider: TestProvider;
}

/** flakeboard listening on 127.0.0.1 with single sign-on through a real provider beside it. */
async function setup(options: { roles?: Partial<RoleMapping>; localLogin?: boolean; publicUrl?: URL; now?: () => number } = {}): Promise<Setup> {
  provider = await startTestProvider();
  const settings = oidcSettings({ issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret, displayName: 'Test IdP', scopes: 'openid profile email groups', roles: options.roles ?? {} });
  t = await buildTestApp({ oidc: { client: new OidcClient(settings), settings }, localLogin: options.localLogin ?? true, ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}), ...(options.now ? { now: options.now } : {}) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  provider.register(`${base}/api/auth/oidc/callback`);
  return { base, t, provider };
}

const toLoginPage = (base: string) => (url: string) => url.startsWith(`${base}/#/login`);

/** The whole sign-in: start, the provider's screens, the callback, the page's exchange. */
async function ssoSignIn(s: Setup, subject: string, browser = new CookieBrowser(), returnTo = '/flaky-tests') {
  const back = await signInAtProvider(browser, `${s.base}/api/auth/oidc/start?return=${encodeURIComponent(returnTo)}`, subject, { stopAt: toLoginPage(s.base) });
  const landed = new URL(back.location!.replace('/#/login', '/login'));
  if (landed.searchParams.get('sso') !== 'done') return { error: landed.searchParams.get('sso_error'), providerError: landed.searchParams.get('provider_error'), browser };
  const exchange = await browser.request(`${s.base}/api/auth/oidc/session`, { method: 'POST', json: {} });
  expect(exchange.status).toBe(200);
  return { session: JSON.parse(exchange.body) as { token: string; sessionToken: string; user: { id: number; username: string; role: string }; returnTo: string }, browser };
}

const me = async (base: string, token: string) => (await fetch(`${base}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })).json();

describe('single sign-on through a real OpenID provider', () => {
  it('a first sign-in creates the account (member, named from the claims); the next finds it by issuer and subject', async () => {
    const s = await setup();
    s.provider.accounts.set('u-1001', { preferred_username: 'dana', email: 'dana@example.com' });
    const first = await ssoSignIn(s, 'u-1001');
    expect(first.session!.user).toMatchObject({ username: 'dana', role: 'member' });
    expect(first.session!.returnTo).toBe('/flaky-tests');
    // The same kind of session a password gives: it reads the API.
    expect(await me(s.base, first.session!.token)).toEqual({ user: first.session!.user });
    const row = await s.t.store.sql.get('SELECT username, role, oidc_issuer, oidc_subject, password_hash FROM users WHERE oidc_subject = @sub', { sub: 'u-1001' });
    expect(row).toEqual({ username: 'dana', role: 'member', oidc_issuer: s.provider.issuer, oidc_subject: 'u-1001', password_hash: 'sso' });
    // Nothing of the finished flow is left: state, nonce and verifier are gone with it.
    expect(await s.t.store.sql.value('SELECT count(*) AS n FROM oidc_flows')).toBe(0);

    // Renamed at the provider: still the same account (the subject decides), not a new one.
    s.provider.accounts.set('u-1001', { preferred_username: 'dana.renamed' });
    const second = await ssoSignIn(s, 'u-1001');
    expect(second.session!.user).toEqual(first.session!.user);
    expect(await s.t.store.sql.value('SELECT count(*) AS n FROM users')).toBe(4);
    // The audit trail: the account made by the provider, then two sign-ins through it.
    const audit = await s.t.store.sql.all<{ action: string; actor_name: string | null; target_label: string; detail_json: string }>(
      "SELECT action, actor_name, target_label, detail_json FROM audit_log WHERE target_label = 'dana' ORDER BY id",
    );
    expect(audit.map((a) => [a.action, a.actor_name, JSON.parse(a.detail_json).method])).toEqual([
      ['user.add', 'Test IdP', 'oidc'],
      ['session.sign-in', 'dana', 'oidc'],
      ['session.sign-in', 'dana', 'oidc'],
    ]);
  });

  it('maps the admin group to admin, re-reads the groups at every sign-in, and gives a taken name a number', async () => {
    const s = await setup({ roles: { adminGroup: 'flakeboard-admins', reviewerGroup: 'qa' } });
    // "admin" is a local account: the provider's "admin" must not become it.
    s.provider.accounts.set('u-7', { preferred_username: 'admin', groups: ['staff', 'flakeboard-admins'] });
    const first = await ssoSignIn(s, 'u-7');
    expect(first.session!.user).toMatchObject({ username: 'admin-2', role: 'admin' });
    expect(await s.t.store.sql.get("SELECT role, oidc_subject FROM users WHERE username = 'admin'")).toEqual({ role: 'admin', oidc_subject: null });

    s.provider.accounts.set('u-7', { preferred_username: 'admin', groups: ['qa'] });
    const second = await ssoSignIn(s, 'u-7');
    expect(second.session!.user).toMatchObject({ id: first.session!.user.id, role: 'reviewer' });
    // The demotion ended the session the admin groups had given.
    expect((await fetch(`${s.base}/api/auth/me`, { headers: { authorization: `Bearer ${first.session!.token}` } })).status).toBe(401);
  });

  it('refuses someone outside the allowed groups, and makes no account', async () => {
    const s = await setup({ roles: { allowedGroups: ['engineering'] } });
    s.provider.accounts.set('u-2', { preferred_username: 'outsider', groups: ['sales'] });
    expect(await ssoSignIn(s, 'u-2')).toMatchObject({ error: 'not-allowed' });
    expect(await s.t.store.sql.value("SELECT count(*) AS n FROM users WHERE username = 'outsider'")).toBe(0);
    s.provider.accounts.set('u-3', { preferred_username: 'insider', groups: ['engineering'] });
    expect((await ssoSignIn(s, 'u-3')).session!.user).toMatchObject({ username: 'insider', role: 'member' });
  });

  it('ends the sessions of an account the provider no longer allows, once a sign-in shows it', async () => {
    const s = await setup({ roles: { allowedGroups: ['engineering'], adminGroup: 'flakeboard-admins' } });
    s.provider.accounts.set('u-20', { preferred_username: 'lee', groups: ['engineering', 'flakeboard-admins'] });
    const admin = await ssoSignIn(s, 'u-20');
    expect(admin.session!.user.role).toBe('admin');
    const auditAs = async (token: string) => (await fetch(`${s.base}/api/audit`, { headers: { authorization: `Bearer ${token}` } })).status;
    expect(await auditAs(admin.session!.token)).toBe(200);
    // Lee leaves: the provider drops every group. The next sign-in is refused, and the
    // sessions the groups gave end with it.
    s.provider.accounts.set('u-20', { preferred_username: 'lee', groups: [] });
    expect(await ssoSignIn(s, 'u-20')).toMatchObject({ error: 'not-allowed' });
    expect(await auditAs(admin.session!.token)).toBe(401);
  });

  it('refuses a callback whose state was changed, and the flow cannot be finished after', async () => {
    const s = await setup();
    s.provider.accounts.set('u-4', { preferred_username: 'erin' });
    const browser = new CookieBrowser();
    const back = await signInAtProvider(browser, `${s.base}/api/auth/oidc/start`, 'u-4', { stopAt: (url) => url.startsWith(`${s.base}/api/auth/oidc/callback`) });
    const callback = new URL(back.location!);
    expect(callback.searchParams.get('code')).toBeTruthy();
    const tampered = new URL(callback);
    tampered.searchParams.set('state', `${callback.searchParams.get('state')}x`);
    const refused = await browser.request(tampered.href);
    expect(refused.location).toBe(`${s.base}/#/login?sso_error=state`);
    // The real answer, sent after: the flow was spent on the forgery, so it is refused too.
    expect((await browser.request(callback.href)).location).toBe(`${s.base}/#/login?sso_error=expired`);
    expect((await browser.request(`${s.base}/api/auth/oidc/session`, { method: 'POST', json: {} })).status).toBe(400);
    expect(await s.t.store.sql.value('SELECT count(*) AS n FROM sessions')).toBe(0);
    expect(await s.t.store.sql.value("SELECT count(*) AS n FROM users WHERE username = 'erin'")).toBe(0);
  });

  it('refuses a forged code: the provider answers invalid_grant and no session is made', async () => {
    const s = await setup();
    s.provider.accounts.set('u-11', { preferred_username: 'kim' });
    const browser = new CookieBrowser();
    const back = await signInAtProvider(browser, `${s.base}/api/auth/oidc/start`, 'u-11', { stopAt: (url) => url.startsWith(`${s.base}/api/auth/oidc/callback`) });
    const forged = new URL(back.location!);
    forged.searchParams.set('code', 'a-code-the-provider-never-issued');
    expect((await browser.request(forged.href)).location).toBe(`${s.base}/#/login?sso_error=provider-error&provider_error=invalid_grant`);
    expect(await s.t.store.sql.value('SELECT count(*) AS n FROM sessions')).toBe(0);
    // A failed sign-in through the provider is in the audit trail, as a password's is.
    const failures = await s.t.store.sql.all<{ detail_json: string }>("SELECT detail_json FROM audit_log WHERE action = 'session.sign-in-failed'");
    expect(failures.map((f) => JSON.parse(f.detail_json))).toEqual([{ method: 'oidc', reason: 'provider-error', providerError: 'invalid_grant' }]);
    expect(await s.t.store.sql.value('SELECT count(*) AS n FROM oidc_flows')).toBe(0);
  });

  it('refuses a replayed callback, one from another browser, and a second exchange of the same sign-in', async () => {
    const s = await setup();
    s.provider.accounts.set('u-5', { preferred_username: 'finn' });
    const browser = new CookieBrowser();
    const back = await signInAtProvider(browser, `${s.base}/api/auth/oidc/start`, 'u-5', { stopAt: (url) => url.startsWith(`${s.base}/api/auth/oidc/callback`) });
    const callback = back.location!;
    const flowId = browser.cookie('127.0.0.1', FLOW_COOKIE)!;
    // An attacker's browser with the victim's callback URL (login CSRF the other way): no flow.
    expect((await new CookieBrowser().request(callback)).location).toBe(`${s.base}/#/login?sso_error=expired`);
    expect((await browser.request(callback)).location).toBe(`${s.base}/#/login?sso=done`);
    // Replayed with the cookie put back: the flow is no longer pending.
    const replay = await fetch(callback, { redirect: 'manual', headers: { cookie: `${FLOW_COOKIE}=${flowId}` } });
    expect(new URL(replay.headers.get('location')!, s.base).href).toBe(`${s.base}/#/login?sso_error=expired`);
    const exchange = await fetch(`${s.base}/api/auth/oidc/session`, { method: 'POST', headers: { cookie: `${FLOW_COOKIE}=${flowId}`, 'content-type': 'application/json' }, body: '{}' });
    expect(exchange.status).toBe(200);
    const again = await fetch(`${s.base}/api/auth/oidc/session`, { method: 'POST', headers: { cookie: `${FLOW_COOKIE}=${flowId}`, 'content-type': 'application/json' }, body: '{}' });
    expect([again.status, ((await again.json()) as { error: string }).error]).toEqual([400, 'This sign-in with Test IdP has expired or was already used. Please sign in again.']);
    expect(await s.t.store.sql.value('SELECT count(*) AS n FROM sessions')).toBe(1);
  });

  it('refuses a sign-in that took longer than ten minutes at the provider', async () => {
    let skew = 0;
    const s = await setup({ now: () => Date.now() + skew });
    s.provider.accounts.set('u-10', { preferred_username: 'jo' });
    const browser = new CookieBrowser();
    const back = await signInAtProvider(browser, `${s.base}/api/auth/oidc/start`, 'u-10', { stopAt: (url) => url.startsWith(`${s.base}/api/auth/oidc/callback`) });
    skew = 10 * 60_000 + 1;
    expect((await browser.request(back.location!)).location).toBe(`${s.base}/#/login?sso_error=expired`);
    expect(await s.t.store.sql.value("SELECT count(*) AS n FROM users WHERE username = 'jo'")).toBe(0);
  });

  it('brings a refusal at the provider back to the login page as a code', async () => {
    const s = await setup();
    s.provider.accounts.set('u-6', { preferred_username: 'gus' });
    expect((await ssoSignIn(s, 'u-6')).session!.user.username).toBe('gus');
    const denied = await signInAtProvider(new CookieBrowser(), `${s.base}/api/auth/oidc/start`, 'u-6', { abort: true, stopAt: toLoginPage(s.base) });
    expect(denied.location).toBe(`${s.base}/#/login?sso_error=denied&provider_error=access_denied`);
  });

  it('returns only to a path of this site', async () => {
    const s = await setup();
    s.provider.accounts.set('u-8', { preferred_username: 'hana' });
    for (const [asked, given] of [['//evil.example/x', '/'], ['https://evil.example', '/'], ['/\\evil.example', '/'], ['/login', '/'], ['/trends?days=7', '/trends?days=7']]) {
      expect((await ssoSignIn(s, 'u-8', new CookieBrowser(), asked)).session!.returnTo).toBe(given);
    }
  });

  it('with local sign-in turned off: the password route refuses, the methods say so, single sign-on works', async () => {
    const s = await setup({ localLogin: false });
    const methods = await (await fetch(`${s.base}/api/auth/methods`)).json();
    expect(methods).toEqual({ password: false, sso: { name: 'Test IdP', startUrl: '/api/auth/oidc/start' } });
    const login = await fetch(`${s.base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: PASSWORD }) });
    expect([login.status, ((await login.json()) as { error: string }).error]).toEqual([403, 'Password sign-in is turned off on this server: sign in with Test IdP.']);
    s.provider.accounts.set('u-9', { preferred_username: 'ivy' });
    expect((await ssoSignIn(s, 'u-9')).session!.user).toMatchObject({ username: 'ivy' });
  });

  it('with local sign-in turned off: a session a password gave before ends; an API token and a sign-on session go on', async () => {
    const s = await setup({ localLogin: false });
    // The same database served a moment ago with passwords on (the admin turned them off since).
    const before = await buildApp({ store: s.t.store, uiDir: null, scrypt: TEST_SCRYPT });
    const password = await signIn(before, 'admin');
    await before.close();
    const apiToken = newToken(API_TOKEN_PREFIX);
    await createApiToken(s.t.store, { name: 'ci', tokenHash: hashToken(apiToken), userId: (await findUser(s.t.store, 'max'))!.id, scopes: ['read'] });
    const meAs = async (token: string) => (await fetch(`${s.base}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })).status;
    expect(await meAs(password.token)).toBe(401);
    const audit = await fetch(`${s.base}/api/audit`, { headers: { authorization: `Bearer ${password.token}` } });
    expect(audit.status).toBe(401);
    // Tokens are for CI, made with the CLI: they keep working (docs/single-sign-on.md).
    expect((await fetch(`${s.base}/api/dashboard`, { headers: { authorization: `Bearer ${apiToken}` } })).status).toBe(200);
    s.provider.accounts.set('u-10', { preferred_username: 'jo' });
    expect(await meAs((await ssoSignIn(s, 'u-10')).session!.token)).toBe(200);
  });

  it('sets the flow cookie HttpOnly, SameSite=Lax, scoped to the sign-on routes, and short-lived', async () => {
    const s = await setup();
    const start = await fetch(`${s.base}/api/auth/oidc/start`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    expect(start.headers.get('location')).toMatch(new RegExp(`^${s.provider.issuer}/auth\\?.*code_challenge_method=S256`));
    const cookie = start.headers.getSetCookie().find((c) => c.startsWith(`${FLOW_COOKIE}=`))!;
    expect(cookie).toMatch(/^flakeboard-sso=[A-Za-z0-9_-]{43}; Path=\/api\/auth\/oidc; HttpOnly; SameSite=Lax; Max-Age=600$/);
    const location = new URL(start.headers.get('location')!);
    for (const key of ['state', 'nonce', 'code_challenge']) expect(location.searchParams.get(key)).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(location.searchParams.get('redirect_uri')).toBe(`${s.base}/api/auth/oidc/callback`);
  });
});

describe('behind a proxy', () => {
  it('makes the callback from --public-url, whatever Host the request names, and marks the cookie Secure for https', async () => {
    const s = await setup({ publicUrl: new URL('https://flakeboard.example.com') });
    const start = await fetch(`${s.base}/api/auth/oidc/start`, { redirect: 'manual' });
    expect(new URL(start.headers.get('location')!).searchParams.get('redirect_uri')).toBe('https://flakeboard.example.com/api/auth/oidc/callback');
    expect(start.headers.getSetCookie().find((c) => c.startsWith(`${FLOW_COOKIE}=`))).toMatch(/; Secure$/);
    // A callback without a flow goes back to the public address's login page.
    expect((await fetch(`${s.base}/api/auth/oidc/callback?code=x&state=y`, { redirect: 'manual' })).headers.get('location')).toBe('https://flakeboard.example.com/#/login?sso_error=expired');
  });
});

describe('without single sign-on', () => {
  it('offers the password only, and has no sign-on routes', async () => {
    t = await buildTestApp();
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/methods' })).json()).toEqual({ password: true, sso: null });
    // Not a public route here: closed like any unknown address under /api/.
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/oidc/start' })).statusCode).toBe(401);
  });

  it('a password never signs in to an account made by single sign-on', async () => {
    t = await buildTestApp();
    await t.store.db.insertInto('users').values({ username: 'sso-person', password_hash: 'sso', role: 'member', created_at: 1, updated_at: 1, oidc_issuer: 'https://idp.example', oidc_subject: 's' }).execute();
    for (const password of ['sso', '', 'anything at all']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'sso-person', password } });
      expect(res.statusCode).toBeOneOf([400, 401]);
    }
  });
});
