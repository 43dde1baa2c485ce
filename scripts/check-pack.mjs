// `npm pack` output installs into an empty folder and its binary runs: how users get the tool.
// Prints the closing line CI reads ("N passed, N failed") and exits non-zero on failure.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'flakeboard-pack-'));
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const checks = [];
const check = async (name, fn) => {
  try {
    await fn();
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
  await check('the tarball ships the binary, the bundle, the built UI, the licence and the README', () => {
    const listing = run('tar', ['-tzf', tarball], work);
    for (const path of ['package/bin/flakeboard.js', 'package/dist/cli.js', 'package/dist/ui/index.html', 'package/LICENSE', 'package/README.md']) {
      if (!listing.includes(path)) throw new Error(`${path} is not in the tarball`);
    }
    if (/package\/(core|server|cli|ui\/src)\//.test(listing)) throw new Error('sources are in the tarball');
  });
  await check('npm install of the tarball in an empty folder, with no engine warning', () => {
    // npm prints its warnings on stderr, which run() keeps out of its answer.
    const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', tarball], { cwd: app, encoding: 'utf8' });
    if (install.status !== 0) throw new Error(`npm install failed:\n${install.stderr}`);
    if (/EBADENGINE/.test(install.stderr + install.stdout)) throw new Error(`npm warned about engines:\n${install.stderr}`);
  });
  await check('npx flakeboard --help runs', () => {
    const help = run('npx', ['--no-install', 'flakeboard', '--help'], app);
    if (!help.includes('Usage: flakeboard')) throw new Error(`unexpected help:\n${help}`);
  });
  await check('npx flakeboard import stores a report', () => {
    const report = { config: { projects: [{ name: 'chromium' }] }, suites: [{ title: 'a', file: 'a.spec.ts', specs: [{ title: 't', file: 'a.spec.ts', line: 1, column: 1, tests: [{ projectName: 'chromium', expectedStatus: 'passed', results: [{ status: 'passed', retry: 0, duration: 1 }] }] }] }], errors: [] };
    writeFileSync(join(app, 'r.json'), JSON.stringify(report));
    const out = JSON.parse(run('npx', ['--no-install', 'flakeboard', 'import', 'r.json', '--json'], app));
    if (out[0]?.tests !== 1 || out[0]?.runId !== 1) throw new Error(`unexpected import output: ${JSON.stringify(out)}`);
    if (!readdirSync(join(app, '.flakeboard')).includes('flakeboard.db')) throw new Error('no database in .flakeboard/');
  });
  await check('npx flakeboard serve --demo answers the UI and the dashboard, and stops cleanly', () => serveCheck(app));
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** The installed server: its first-start password signs in, the analytics worker answers. */
async function serveCheck(cwd) {
  const child = spawn(join(cwd, 'node_modules/.bin/flakeboard'), ['serve', '--port', '0', '--demo', '--db', 'serve.db'], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FLAKEBOARD_SCRYPT_N: '1024' } });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    for (let i = 0; i < 600 && !/serving .* at (http:\/\/\S+)/.test(output); i++) await new Promise((r) => setTimeout(r, 100));
    const url = /serving .* at (http:\/\/\S+)/.exec(output)?.[1];
    const password = /password: (\S+)/.exec(output)?.[1];
    if (!url || !password) throw new Error(`serve did not start:\n${output}`);
    const html = await (await fetch(url)).text();
    if (!html.includes('<div id="root">')) throw new Error('the UI is not served');
    const login = await fetch(new URL('/api/auth/login', url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password }) });
    const { token } = await login.json();
    const dashboard = await fetch(new URL('/api/dashboard?days=0', url), { headers: { authorization: `Bearer ${token}` } });
    const body = await dashboard.json();
    if (dashboard.status !== 200 || !(body.summary?.[0]?.total_runs > 0)) throw new Error(`dashboard answered ${dashboard.status}: ${JSON.stringify(body).slice(0, 300)}`);
  } finally {
    child.kill('SIGTERM');
  }
  const code = await exited;
  if (code !== 0) throw new Error(`serve exited ${code}:\n${output}`);
}
const failed = checks.filter(([, ok]) => !ok).length;
console.log(`${checks.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
