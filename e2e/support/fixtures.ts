import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
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

export const test = base.extend<{ flakeboard: Flakeboard }>({
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

export { expect };

/** Opens `hash` (default the dashboard) and signs in through the form; waits for the header. */
export async function signIn(page: Page, server: RunningServer, options: { hash?: string; username?: string; password?: string } = {}): Promise<void> {
  await page.goto(`${server.url}#${options.hash ?? '/'}`);
  await page.getByLabel('Username', { exact: true }).fill(options.username ?? ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill(options.password ?? ADMIN.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
}

/**
 * Screenshots of what is on screen in both themes, for a person to look at
 * (test-results/screens). Follows the system preference, so nothing may be stored under `theme`.
 */
export async function shootBothThemes(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
    await settled(page);
    await page.screenshot({ path: `test-results/screens/${name}-${colorScheme}.png`, fullPage: options.fullPage ?? true });
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
