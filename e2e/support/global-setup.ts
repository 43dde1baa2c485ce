import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN, BIN, MEMBER, runCli, serve } from './cli.js';
import { TEMPLATE_DIR_ENV, templatePath } from './templates.js';

export default async function globalSetup(): Promise<() => void> {
  if (!existsSync(join(BIN, '../../dist/cli.js')) || !existsSync(join(BIN, '../../dist/ui/index.html'))) {
    throw new Error('The browser tests run the built product: run `npm run build` first.');
  }
  const dir = mkdtempSync(join(tmpdir(), 'flakeboard-e2e-'));
  const empty = templatePath(dir, 'empty');
  runCli(['user', 'add', ADMIN.username, '--role', 'admin', '--password-stdin', '--db', empty], { input: `${ADMIN.password}\n` });
  runCli(['user', 'add', MEMBER.username, '--role', 'member', '--password-stdin', '--db', empty], { input: `${MEMBER.password}\n` });

  // The demo history is what `serve --demo` seeds; a clean stop checkpoints it into the file.
  const demo = templatePath(dir, 'demo');
  copyFileSync(empty, demo);
  const server = await serve(demo, ['--demo']);
  await server.stop();

  process.env[TEMPLATE_DIR_ENV] = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
