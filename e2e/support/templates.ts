import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Prepared databases, built once per run by global-setup and copied for each test:
 * - empty: the two accounts, no runs;
 * - demo: the accounts plus `serve --demo`'s history (61 runs, 3 pending, 1 duplicate);
 * - large: the accounts plus a suite larger than one page of every list: 6 approved reports of
 *   400 tests on 4 browsers over the 6 days before the run, well over 50 flaky groups and slow tests.
 */
export type Template = 'empty' | 'demo' | 'large';
export const TEMPLATES: readonly Template[] = ['empty', 'demo', 'large'];
export const TEMPLATE_DIR_ENV = 'FLAKEBOARD_E2E_TEMPLATES';

export function templatePath(dir: string, template: Template): string {
  return join(dir, `${template}.db`);
}

export function copyTemplate(template: Template, target: string): void {
  const dir = process.env[TEMPLATE_DIR_ENV];
  if (!dir) throw new Error(`${TEMPLATE_DIR_ENV} is not set: run the browser tests through playwright.config.ts`);
  const source = templatePath(dir, template);
  if (!existsSync(source)) throw new Error(`no prepared database ${source}`);
  copyFileSync(source, target);
  // The server's stop leaves the tail of the demo seed in the write-ahead log (it is not
  // checkpointed into the file): without it the copy lacks the last runs, the pending ones.
  if (existsSync(`${source}-wal`)) copyFileSync(`${source}-wal`, `${target}-wal`);
}
