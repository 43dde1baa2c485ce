import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { ADMIN, runCli, serve, type RunningServer } from './cli.js';
import { copyTemplate, type Template } from './templates.js';

export interface StartOptions {
  /** Which prepared database to start from (default demo). */
  template?: Template;
  /** Reports imported with the real CLI before the server starts. */
  imports?: Array<{ paths: string[]; approve?: boolean; project?: string; branch?: string; commit?: string; buildId?: string; buildUrl?: string }>;
}

export interface Flakeboard {
  /** A server on a fresh copy of a prepared database, stopped after the test. */
  start(options?: StartOptions): Promise<RunningServer>;
}

export const test = base.extend<{ flakeboard: Flakeboard }>({
  // eslint-disable-next-line no-empty-pattern
  flakeboard: async ({}, use) => {
    const dirs: string[] = [];
    const servers: RunningServer[] = [];
    await use({
      async start(options = {}) {
        const dir = mkdtempSync(join(tmpdir(), 'flakeboard-e2e-test-'));
        dirs.push(dir);
        const dbPath = join(dir, 'flakeboard.db');
        copyTemplate(options.template ?? 'demo', dbPath);
        for (const batch of options.imports ?? []) {
          const args = ['import', ...batch.paths, '--db', dbPath];
          if (batch.approve) args.push('--approve');
          if (batch.project) args.push('--project', batch.project);
          if (batch.branch) args.push('--branch', batch.branch);
          if (batch.commit) args.push('--commit', batch.commit);
          if (batch.buildId) args.push('--build-id', batch.buildId);
          if (batch.buildUrl) args.push('--build-url', batch.buildUrl);
          runCli(args);
        }
        const server = await serve(dbPath);
        servers.push(server);
        return server;
      },
    });
    await Promise.all(servers.map((s) => s.stop()));
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
    // Charts animate in; let them settle before the picture.
    await page.waitForTimeout(600);
    await page.screenshot({ path: `test-results/screens/${name}-${colorScheme}.png`, fullPage: options.fullPage ?? true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
