import { freePort, startTestProvider, type TestProvider } from '../fixtures/testing/openid-provider.js';
import { expect, test } from './support/fixtures.js';

let provider: TestProvider | null = null;
test.afterEach(async () => {
  await provider?.close();
  provider = null;
});

/** The built `serve` with single sign-on through a real provider on loopback (a public client: PKCE alone). */
async function startWithSso(flakeboard: Parameters<Parameters<typeof test>[2]>[0]['flakeboard'], extra: string[] = []) {
  provider = await startTestProvider({ publicClient: true });
  const port = await freePort();
  provider.register(`http://127.0.0.1:${port}/api/auth/oidc/callback`);
  const args = ['--port', String(port), '--oidc-issuer', provider.issuer, '--oidc-client-id', provider.clientId, '--oidc-name', 'Test IdP', '--oidc-scopes', 'openid profile groups', '--oidc-admin-group', 'flakeboard-admins', ...extra];
  return { server: await flakeboard.start({ args }), provider };
}

test('the SSO button signs in at the provider and lands on the page asked for', async ({ page, flakeboard }) => {
  const { server, provider } = await startWithSso(flakeboard);
  provider.accounts.set('u-42', { preferred_username: 'sso.person', groups: ['flakeboard-admins'] });
  await page.goto(`${server.url}#/trends`);
  // Both ways in: the password form stays, the provider's button above it.
  await expect(page.getByLabel('Username', { exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
  // The provider's own screens, as it serves them.
  await page.locator('input[name="login"]').fill('u-42');
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  await expect(page).toHaveURL(/#\/trends$/);
  await expect(page.getByText('sso.person')).toBeVisible();
});

test('with password sign-in off, only the button; a refusal at the provider is said on the login page', async ({ page, flakeboard }) => {
  const { server, provider } = await startWithSso(flakeboard, ['--no-local-login']);
  provider.accounts.set('u-43', { preferred_username: 'refuser' });
  await page.goto(`${server.url}#/login`);
  await expect(page.getByRole('link', { name: 'Sign in with Test IdP' })).toBeVisible();
  await expect(page.getByLabel('Username', { exact: true })).toHaveCount(0);
  await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
  await page.locator('input[name="login"]').fill('u-43');
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  // The consent screen's "Cancel" link aborts at the provider: access_denied comes back.
  await page.goto(page.url().replace(/\/interaction\/([^/?#]+).*$/, '/interaction/$1/abort'));
  await expect(page.getByTestId('login-error')).toHaveText('Sign-in was cancelled or refused at Test IdP.');
  await expect(page.getByRole('link', { name: 'Sign in with Test IdP' })).toBeVisible();
});
