import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryTmpdir } from '../../fixtures/testing/memory-tmpdir.js';
import { generateHistory } from '../../server/demo/history.js';
import { ADMIN, BIN, MEMBER, runCli, runCliAsync, serve } from './cli.js';
import { TEMPLATE_DIR_ENV, templatePath } from './templates.js';

export default async function globalSetup(): Promise<() => void> {
  if (!existsSync(join(BIN, '../../dist/cli.js')) || !existsSync(join(BIN, '../../dist/ui/index.html'))) {
    throw new Error('The browser tests run the built product: run `npm run build` first.');
  }
  // The servers' databases, copies and Chromium's profiles in memory where there is a tmpfs
  // (fixtures/testing/memory-tmpdir.ts); Playwright's workers take this process's environment.
  const memory = memoryTmpdir('flakeboard-e2e-run-');
  const dir = mkdtempSync(join(tmpdir(), 'flakeboard-e2e-'));
  const empty = templatePath(dir, 'empty');
  runCli(['user', 'add', ADMIN.username, '--role', 'admin', '--password-stdin', '--db', empty], { input: `${ADMIN.password}\n` });
  runCli(['user', 'add', MEMBER.username, '--role', 'member', '--password-stdin', '--db', empty], { input: `${MEMBER.password}\n` });

  // The demo history is what `serve --demo` seeds; a clean stop checkpoints it into the file.
  // The two prepared histories are built side by side, one on each core.
  const demo = templatePath(dir, 'demo');
  copyFileSync(empty, demo);
  const seeded = serve(demo, ['--demo']).then((server) => server.stop());

  // Imported once here rather than per test: 9,600 results take the CLI seconds of CPU.
  const large = templatePath(dir, 'large');
  copyFileSync(empty, large);
  const reports: string[] = [];
  for (const run of generateHistory({ seed: 41, runs: 6, days: 6, tests: 400, endDate: Date.now() })) {
    const path = join(dir, run.fileName);
    writeFileSync(path, JSON.stringify(run.report));
    reports.push(path);
  }
  await Promise.all([seeded, runCliAsync(['import', ...reports, '--approve', '--db', large])]);
  for (const path of reports) rmSync(path);

  process.env[TEMPLATE_DIR_ENV] = dir;
  return () => {
    rmSync(dir, { recursive: true, force: true });
    memory?.remove();
  };
}
