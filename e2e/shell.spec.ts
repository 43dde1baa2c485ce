import { ADMIN, MEMBER } from './support/cli.js';
import { expect, picture, shootBothThemes, signIn, test } from './support/fixtures.js';

test.describe('sign-in and the shell', () => {
  test('signs in, shows the header with its tabs and the username, and logs out', async ({ page, flakeboard }) => {
    const server = await flakeboard.start({ template: 'empty' });
    await page.goto(server.url);
    await expect(page).toHaveURL(/#\/login$/);
    // The header is hidden on /login.
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
    await shootBothThemes(page, 'login');

    await page.getByLabel('Username', { exact: true }).fill(ADMIN.username);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByLabel('Password', { exact: true }).press('Enter');
    await expect(page.getByTestId('current-user')).toHaveText(ADMIN.username);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link')).toHaveText(['Dashboard', 'Upload', 'Flaky Tests', 'Error Patterns', 'Slow Tests', 'Trends', 'Browser Analysis', 'Admin']);
    const stored = await page.evaluate(() => ({
      token: localStorage.getItem('auth_token'),
      session: localStorage.getItem('session_token'),
      user: JSON.parse(localStorage.getItem('user_data') ?? 'null'),
    }));
    expect(stored.token).toMatch(/^[\w-]{20,}/);
    expect(stored.session).toMatch(/^[\w-]{20,}/);
    expect(stored.user.username).toBe(ADMIN.username);

    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/#\/login$/);
    expect(await page.evaluate(() => [localStorage.getItem('auth_token'), localStorage.getItem('session_token'), localStorage.getItem('user_data')])).toEqual([null, null, null]);
    // The server ended the session too: the old token is refused.
    const status = await page.evaluate(async (token) => (await fetch('/api/auth/me', { headers: { authorization: `Bearer ${token}` } })).status, stored.token);
    expect(status).toBe(401);
  });

  // The failed logout is the page route's: the shared session stays valid on the server.
  test('logout still goes to /login when the call fails', async ({ page, emptyStore: server }) => {
    await signIn(page, server);
    await page.route('**/api/auth/logout', (route) => route.fulfill({ status: 500, body: '{"error":"boom"}', contentType: 'application/json' }));
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/#\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
  });

  test('validation, wrong password with attempts remaining, then the locked text', async ({ page, flakeboard }) => {
    const server = await flakeboard.start({ template: 'empty' });
    await page.goto(`${server.url}#/login`);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByTestId('login-error')).toHaveText('Please enter both username and password.');

    await page.getByLabel('Username', { exact: true }).fill(MEMBER.username);
    await page.getByLabel('Password', { exact: true }).fill('   ');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByTestId('login-error')).toHaveText('Please enter both username and password.');

    for (const remaining of [4, 3, 2, 1]) {
      await page.getByLabel('Password', { exact: true }).fill(`wrong-${remaining}`);
      await page.getByLabel('Password', { exact: true }).press('Enter');
      await expect(page.getByTestId('login-error')).toContainText(`${remaining} attempt(s) remaining`);
      await expect(page.getByTestId('login-error')).toContainText('Invalid username or password');
    }
    await page.getByLabel('Password', { exact: true }).fill('wrong-0');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByTestId('login-error')).toHaveText('Account locked. Please contact an administrator.');
    // Locked means locked, even with the right password.
    await page.getByLabel('Password', { exact: true }).fill(MEMBER.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByTestId('login-error')).toHaveText('Account locked. Please contact an administrator.');
  });

  // The sign-in is answered by the page route, never by the server: the shared empty store,
  // without its session (this page must show the form).
  test('the button reads Signing in... while busy, and a failure with no error field shows the fallback', async ({ page, sharedEmpty: server }) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/auth/login', async (route) => {
      await held;
      await route.fulfill({ status: 500, body: 'gateway exploded', contentType: 'text/plain' });
    });
    await page.goto(`${server.url}#/login`);
    await page.getByLabel('Username', { exact: true }).fill(ADMIN.username);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('button', { name: 'Signing in...' })).toBeDisabled();
    release();
    await expect(page.getByTestId('login-error')).toHaveText('Login failed. Please check your credentials and try again.');
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeEnabled();
  });

  test('a visitor is returned to the page they came from after sign-in', async ({ page, flakeboard }) => {
    const server = await flakeboard.start({ template: 'empty' });
    await page.goto(`${server.url}#/trends`);
    await expect(page).toHaveURL(/#\/login$/);
    await page.getByLabel('Username', { exact: true }).fill(ADMIN.username);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/#\/trends$/);
    await expect(page.getByRole('link', { name: 'Trends' })).toHaveAttribute('aria-current', 'page');
  });

  // Only the page's copy of the session is forged; the shared one stays valid on the server.
  test('a restored session is validated at start; an invalid one is cleared', async ({ page, emptyStore: server }) => {
    await signIn(page, server);
    await page.reload();
    await expect(page.getByTestId('current-user')).toHaveText(ADMIN.username);

    await page.evaluate(() => localStorage.setItem('auth_token', 'forged-token'));
    await page.reload();
    await expect(page).toHaveURL(/#\/login$/);
    expect(await page.evaluate(() => [localStorage.getItem('auth_token'), localStorage.getItem('user_data')])).toEqual([null, null]);
  });

  test('any 401 clears the session and goes to #/login', async ({ page, flakeboard }) => {
    const server = await flakeboard.start({ template: 'empty' });
    await signIn(page, server, { hash: '/slow-tests' });
    // The session ends on the server behind the page's back (another tab logged out).
    await page.evaluate(async () => {
      await fetch('/api/auth/logout', { method: 'POST', headers: { authorization: `Bearer ${localStorage.getItem('auth_token')}`, 'x-xsrf-token': document.cookie.replace(/.*XSRF-TOKEN=([^;]*).*/, '$1'), 'content-type': 'application/json' }, body: '{}' });
    });
    // The dashboard's next call is answered 401.
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await expect(page).toHaveURL(/#\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
  });

  test('the theme follows the system until toggled, then persists across reload', async ({ page, emptyStore: server }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await signIn(page, server);
    const html = page.locator('html');
    await expect(html).toHaveAttribute('data-theme', 'dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(html).toHaveAttribute('data-theme', 'light');
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBeNull();

    await page.getByTestId('theme-toggle').click();
    await expect(html).toHaveAttribute('data-theme', 'dark');
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    await page.reload();
    await expect(html).toHaveAttribute('data-theme', 'dark');
    // A stored choice wins over the system preference.
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(html).toHaveAttribute('data-theme', 'dark');
    await page.getByTestId('theme-toggle').click();
    await expect(html).toHaveAttribute('data-theme', 'light');
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');
  });

  test('an unknown address shows a not-found page with the way back, not an error screen', async ({ page, emptyStore: server }) => {
    await signIn(page, server);
    await page.goto(`${server.url}#/no-such-screen`);
    await expect(page.getByText('Page not found')).toBeVisible();
    await expect(page.getByText('#/no-such-screen')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Unexpected Application Error!' })).toHaveCount(0);
    // The shell stays: the header and its tabs are there to go elsewhere.
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await shootBothThemes(page, 'not-found');
    await page.setViewportSize({ width: 390, height: 844 });
    await picture(page, 'not-found-390');
    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await expect(page).toHaveURL(/#\/$/);
  });

  test('on a phone the tabs are in a menu: every screen is reachable, the drawer closes on the way', async ({ page, flakeboard }) => {
    const server = await flakeboard.start({ template: 'empty' });
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, server);
    // No strip of cut-off tabs: the navigation is behind the menu button.
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
    await picture(page, 'header-390');
    await page.getByRole('button', { name: 'Open navigation' }).click();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link')).toHaveText(['Dashboard', 'Upload', 'Flaky Tests', 'Error Patterns', 'Slow Tests', 'Trends', 'Browser Analysis', 'Admin']);
    await picture(page, 'header-menu-390');
    await nav.getByRole('link', { name: 'Browser Analysis' }).click();
    await expect(page).toHaveURL(/#\/browser-analysis$/);
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
    // Logout stays one tap away.
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/#\/login$/);
  });

  test('the page has a favicon that the server serves', async ({ page, emptyStore: server }) => {
    await page.goto(server.url);
    const href = await page.locator('link[rel="icon"]').getAttribute('href');
    expect(href).toBeTruthy();
    const res = await page.request.get(new URL(href!, server.url).toString());
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain('image/svg+xml');
    expect(await res.text()).toContain('<svg');
  });
});
