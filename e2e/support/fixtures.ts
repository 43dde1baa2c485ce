import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base, expect, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { createTestDatabase, type TestDatabase } from '../../fixtures/testing/postgres.js';
import { ADMIN, runCli, serve, type RunningServer } from './cli.js';
import { copyTemplate, type Template } from './templates.js';

export interface StartOptions {
  /** Which prepared database to start from (default demo). */
  template?: Template;
  /** A database to serve instead of a template copy: a postgres:// URL from `postgres()`, shared by every server started on it. */
  db?: string;
  /** Reports imported with the real CLI before the server starts. */
  imports?: Array<{ paths: string[]; approve?: boolean; project?: string; branch?: string; commit?: string; buildId?: string; buildUrl?: string; name?: string; uploader?: string }>;
  /** More options for `serve` (a later --port wins over the free one). */
  args?: string[];
}

export interface Flakeboard {
  /** A server on a fresh copy of a prepared database, stopped after the test. */
  start(options?: StartOptions): Promise<RunningServer>;
  /**
   * A fresh PostgreSQL database (FLAKEBOARD_TEST_POSTGRES_URL's server) holding a prepared
   * database, copied by the real `migrate-db`; its URL, for `start({ db })`. Dropped after the test.
   */
  postgres(template?: Template): Promise<string>;
}

/** A server started once per worker on a template copy, with a session made through the API once. */
export interface SharedServer extends RunningServer {
  /** What the UI stores after signing in as ADMIN (docs/testing.md: shared read-only server). */
  session: { token: string; sessionToken: string; user: unknown };
  cookies: Array<{ name: string; value: string }>;
}

export const test = base.extend<
  { flakeboard: Flakeboard; demo: SharedServer; emptyStore: SharedServer; largeStore: SharedServer },
  { sharedDemo: SharedServer; sharedEmpty: SharedServer; sharedLarge: SharedServer }
>({
  // eslint-disable-next-line no-empty-pattern
  sharedDemo: [async ({}, use) => sharedServer('demo', use), { scope: 'worker' }],
  // Asked for by name, without `emptyStore`, it leaves the browser signed out: for a sign-in form whose calls a page route answers.
  // eslint-disable-next-line no-empty-pattern
  sharedEmpty: [async ({}, use) => sharedServer('empty', use), { scope: 'worker' }],
  // eslint-disable-next-line no-empty-pattern
  sharedLarge: [async ({}, use) => sharedServer('large', use), { scope: 'worker' }],
  /** The shared demo server, with this test's browser already signed in on it (read-only tests only). */
  demo: async ({ sharedDemo, context }, use) => use(await signedIn(context, sharedDemo)),
  /** The shared server on the store with accounts and no runs, signed in likewise (read-only tests only). */
  emptyStore: async ({ sharedEmpty, context }, use) => use(await signedIn(context, sharedEmpty)),
  /** The shared server on the large suite (templates.ts), signed in likewise (read-only tests only). */
  largeStore: async ({ sharedLarge, context }, use) => use(await signedIn(context, sharedLarge)),
  // eslint-disable-next-line no-empty-pattern
  flakeboard: async ({}, use) => {
    const dirs: string[] = [];
    const servers: RunningServer[] = [];
    const databases: TestDatabase[] = [];
    const tempDir = () => {
      const dir = mkdtempSync(join(tmpdir(), 'flakeboard-e2e-test-'));
      dirs.push(dir);
      return dir;
    };
    await use({
      async start(options = {}) {
        let dbPath = options.db;
        if (dbPath === undefined) {
          dbPath = join(tempDir(), 'flakeboard.db');
          copyTemplate(options.template ?? 'demo', dbPath);
        }
        for (const batch of options.imports ?? []) {
          const args = ['import', ...batch.paths, '--db', dbPath];
          if (batch.approve) args.push('--approve');
          if (batch.project) args.push('--project', batch.project);
          if (batch.branch) args.push('--branch', batch.branch);
          if (batch.commit) args.push('--commit', batch.commit);
          if (batch.buildId) args.push('--build-id', batch.buildId);
          if (batch.buildUrl) args.push('--build-url', batch.buildUrl);
          if (batch.name) args.push('--name', batch.name);
          if (batch.uploader) args.push('--uploader', batch.uploader);
          runCli(args);
        }
        const server = await serve(dbPath, options.args ?? []);
        servers.push(server);
        return server;
      },
      async postgres(template = 'demo') {
        const database = await createTestDatabase();
        databases.push(database);
        const source = join(tempDir(), 'flakeboard.db');
        copyTemplate(template, source);
        runCli(['migrate-db', '--from', source, '--to', database.url]);
        return database.url;
      },
    });
    await Promise.all(servers.map((s) => s.stop()));
    // After the servers: a database is dropped once nothing serves it.
    for (const database of databases) await database.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  },
});

/**
 * One server per worker on a template copy for the tests that only read: starting `serve` (its
 * worker threads, the store) costs more CPU than most of these tests' own steps. A test that
 * writes anything (imports, reviews, settings, accounts, signing out) starts its own with
 * `flakeboard.start`. Signed in once through the API: the server limits sign-ins per address,
 * and the form is tested where it is the subject.
 */
async function sharedServer(template: Template, use: (server: SharedServer) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), `flakeboard-e2e-shared-${template}-`));
  const dbPath = join(dir, 'flakeboard.db');
  copyTemplate(template, dbPath);
  const server = await serve(dbPath);
  try {
    const answer = await fetch(new URL('/api/auth/login', server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: ADMIN.username, password: ADMIN.password }),
    });
    if (!answer.ok) throw new Error(`sign-in on the shared server answered ${answer.status}: ${await answer.text()}`);
    const session = (await answer.json()) as SharedServer['session'];
    const cookies = answer.headers.getSetCookie().map((line) => {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      return { name: pair.slice(0, at), value: pair.slice(at + 1) };
    });
    await use({ ...server, session, cookies });
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Puts the shared session into this test's browser before any page of the server runs. */
async function signedIn(context: BrowserContext, shared: SharedServer): Promise<SharedServer> {
  await context.addCookies(shared.cookies.map((c) => ({ ...c, url: shared.url })));
  await context.addInitScript(
    ({ origin, session }) => {
      if (window.location.origin !== origin || localStorage.getItem('auth_token') !== null) return;
      localStorage.setItem('auth_token', session.token);
      localStorage.setItem('session_token', session.sessionToken);
      localStorage.setItem('user_data', JSON.stringify(session.user));
    },
    { origin: new URL(shared.url).origin, session: shared.session },
  );
  return shared;
}

export { expect };

/**
 * Opens `hash` (default the dashboard) and signs in through the form; waits for the header.
 * On the shared demo server the `demo` fixture has signed the browser in already (as ADMIN).
 */
export async function signIn(page: Page, server: RunningServer, options: { hash?: string; username?: string; password?: string } = {}): Promise<void> {
  await page.goto(`${server.url}#${options.hash ?? '/'}`);
  if ('session' in server) {
    if (options.username !== undefined || options.password !== undefined) throw new Error('the shared demo server has one session, as ADMIN: start a server for another account');
    await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
    return;
  }
  await page.getByLabel('Username', { exact: true }).fill(options.username ?? ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill(options.password ?? ADMIN.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
}

/**
 * Whether a run takes the pictures for people (test-results/screens): they assert nothing and
 * cost about a fifth of the browser tests' CPU (615 s with them, 497 s without), so a run takes them
 * only when asked: `FLAKEBOARD_E2E_SCREENS=1 npm run test:e2e` (docs/testing.md, "Pictures").
 */
export const SCREENS = process.env.FLAKEBOARD_E2E_SCREENS === '1' || process.env.FLAKEBOARD_E2E_FULL_PAGE === '1';

/**
 * Whether the pictures cover the whole page or what is on screen: a full page of a long screen
 * took seconds of CPU per picture, so a run takes them only when asked
 * (`FLAKEBOARD_E2E_FULL_PAGE=1 npm run test:e2e`, which takes the pictures too).
 */
export const FULL_PAGE = process.env.FLAKEBOARD_E2E_FULL_PAGE === '1';

/**
 * A picture for people of the page (what is on screen, or the whole page with FULL_PAGE) or of
 * one part of it, settled first, saved as test-results/screens/NAME.png; nothing without SCREENS.
 */
export async function picture(target: Page | Locator, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (!SCREENS) return;
  const path = `test-results/screens/${name}.png`;
  if ('goto' in target) {
    await settled(target);
    await target.screenshot({ path, fullPage: options.fullPage ?? FULL_PAGE });
  } else {
    await settled(target.page());
    await target.screenshot({ path });
  }
}

/**
 * Pictures in both themes, for a person to look at (NAME-light and NAME-dark); nothing without
 * SCREENS. Follows the system preference, so nothing may be stored under `theme`.
 */
export async function shootBothThemes(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (!SCREENS) return;
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
    await settled(page);
    await page.screenshot({ path: `test-results/screens/${name}-${colorScheme}.png`, fullPage: options.fullPage ?? FULL_PAGE });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * Waits until the page shows what it will show, for a picture: its fonts loaded, every CSS
 * transition and finite animation ended (a spinner's endless one is left running), and two
 * frames drawn (a chart sizes itself to its box a frame after it mounts). The charts draw
 * without animating (Mantine turns Recharts' animation off), so nothing else is in motion.
 */
export async function settled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await document.fonts.ready;
    const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity);
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
}
