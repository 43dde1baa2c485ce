import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../fixtures/testing/cli.js';
import { CookieBrowser, freePort, signInAtProvider, startTestProvider, type TestProvider } from '../../fixtures/testing/openid-provider.js';
import { startServe, type ServeProcess } from '../../fixtures/testing/serve-process.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';

let temp: ReturnType<typeof makeTempDir>;
let provider: TestProvider | null = null;
let server: ServeProcess | null = null;
beforeEach(() => {
  temp = makeTempDir('flakeboard-serve-sso-');
});
afterEach(async () => {
  await server?.stop();
  await provider?.close();
  server = null;
  provider = null;
  temp.cleanup();
});

describe('flakeboard serve with single sign-on', () => {
  it('refuses a plain-http issuer that is not on this machine, before opening anything', async () => {
    const db = join(temp.dir, 'f.db');
    const { exitCode, stderr } = await runCli(['serve', '--db', db, '--oidc-issuer', 'http://idp.example.com/realms/team', '--oidc-client-id', 'flakeboard'], { cwd: temp.dir });
    expect(exitCode).toBe(1);
    expect(stderr).toContain('--oidc-issuer http://idp.example.com/realms/team: plain http is allowed only for a provider on this machine (127.0.0.1, ::1, localhost); use the provider\'s https:// address');
    expect(existsSync(db)).toBe(false);
  });

  it('refuses half a configuration, and password sign-in turned off with nothing in its place', async () => {
    const half = await runCli(['serve', '--db', join(temp.dir, 'f.db'), '--oidc-issuer', 'https://idp.example.com'], { cwd: temp.dir });
    expect([half.exitCode, half.stderr.trim()]).toEqual([1, 'flakeboard: single sign-on needs both --oidc-issuer and --oidc-client-id']);
    const none = await runCli(['serve', '--db', join(temp.dir, 'f.db'), '--no-local-login'], { cwd: temp.dir });
    expect(none.exitCode).toBe(1);
    expect(none.stderr).toContain('--no-local-login needs single sign-on (--oidc-issuer and --oidc-client-id): with neither, nobody could sign in');
    const role = await runCli(['serve', '--db', join(temp.dir, 'f.db'), '--oidc-issuer', 'https://idp.example.com', '--oidc-client-id', 'x', '--oidc-default-role', 'owner'], { cwd: temp.dir });
    expect(role.stderr).toContain('--oidc-default-role must be one of admin, reviewer, member, not "owner"');
  });

  it('serves sign-on only: no generated admin password, the secret from the environment, an admin from the group', async () => {
    provider = await startTestProvider();
    const port = await freePort();
    provider.register(`http://127.0.0.1:${port}/api/auth/oidc/callback`);
    provider.accounts.set('boss', { preferred_username: 'boss', groups: ['flakeboard-admins'] });
    const args = ['--port', String(port), '--oidc-issuer', provider.issuer, '--oidc-client-id', provider.clientId, '--oidc-name', 'Keycloak', '--oidc-scopes', 'profile groups', '--oidc-admin-group', 'flakeboard-admins', '--no-local-login'];
    server = await startServe(join(temp.dir, 'f.db'), { cwd: temp.dir, args, env: { FLAKEBOARD_OIDC_CLIENT_SECRET: provider.clientSecret } });
    expect(server.output()).not.toMatch(/password:/);
    expect(server.output()).toContain(`Single sign-on with ${provider.issuer}/ (client ${provider.clientId}); callback http://127.0.0.1:${port}/api/auth/oidc/callback; password sign-in is off`);
    expect(server.output()).not.toContain(provider.clientSecret);
    expect(await (await fetch(`${server.url}/api/auth/methods`)).json()).toEqual({ password: false, sso: { name: 'Keycloak', startUrl: '/api/auth/oidc/start' } });

    const browser = new CookieBrowser();
    const back = await signInAtProvider(browser, `${server.url}/api/auth/oidc/start`, 'boss', { stopAt: (url) => url.startsWith(`${server!.url}/#/login`) });
    expect(back.location).toBe(`${server.url}/#/login?sso=done`);
    const session = JSON.parse((await browser.request(`${server.url}/api/auth/oidc/session`, { method: 'POST', json: {} })).body) as { user: unknown };
    expect(session.user).toMatchObject({ username: 'boss', role: 'admin' });
  });
});
