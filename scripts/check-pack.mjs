// `npm pack` output installs into an empty folder and its binary runs: how users get the tool.
// Prints the closing line CI reads ("N passed, N failed") and exits non-zero on failure.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'flakeboard-pack-'));
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const checks = [];
const check = (name, fn) => {
  try {
    fn();
    checks.push([name, true]);
    console.log(`✓ ${name}`);
  } catch (error) {
    checks.push([name, false]);
    console.log(`✗ ${name}\n${error.stderr ?? ''}${error.stdout ?? ''}${error.message}`);
  }
};

try {
  const tarball = join(work, run('npm', ['pack', '--silent', '--pack-destination', work], root).trim().split('\n').pop());
  const app = join(work, 'app');
  run('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'pack-check', private: true, allowScripts: { 'better-sqlite3': true } }));
  check('the tarball ships the binary, the bundle and the built UI', () => {
    const listing = run('tar', ['-tzf', tarball], work);
    for (const path of ['package/bin/flakeboard.js', 'package/dist/cli.js', 'package/dist/ui/index.html']) {
      if (!listing.includes(path)) throw new Error(`${path} is not in the tarball`);
    }
    if (/package\/(core|server|cli|ui\/src)\//.test(listing)) throw new Error('sources are in the tarball');
  });
  check('npm install of the tarball in an empty folder', () => run('npm', ['install', '--no-audit', '--no-fund', tarball], app));
  check('npx flakeboard --help runs', () => {
    const help = run('npx', ['--no-install', 'flakeboard', '--help'], app);
    if (!help.includes('Usage: flakeboard')) throw new Error(`unexpected help:\n${help}`);
  });
  check('npx flakeboard import stores a report', () => {
    const report = { config: { projects: [{ name: 'chromium' }] }, suites: [{ title: 'a', file: 'a.spec.ts', specs: [{ title: 't', file: 'a.spec.ts', line: 1, column: 1, tests: [{ projectName: 'chromium', expectedStatus: 'passed', results: [{ status: 'passed', retry: 0, duration: 1 }] }] }] }], errors: [] };
    writeFileSync(join(app, 'r.json'), JSON.stringify(report));
    const out = JSON.parse(run('npx', ['--no-install', 'flakeboard', 'import', 'r.json', '--json'], app));
    if (out[0]?.tests !== 1 || out[0]?.runId !== 1) throw new Error(`unexpected import output: ${JSON.stringify(out)}`);
    if (!readdirSync(join(app, '.flakeboard')).includes('flakeboard.db')) throw new Error('no database in .flakeboard/');
  });
} finally {
  rmSync(work, { recursive: true, force: true });
}
const failed = checks.filter(([, ok]) => !ok).length;
console.log(`${checks.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
