// `npm pack` output installs into a Playwright project exactly as the README's "Adding flakeboard
// to your Playwright project" says (its commands are read from the README and run as written),
// with no npm warning to decode, and its binary runs: how users get the tool.
// Prints the closing line CI reads ("N passed, N failed") and exits non-zero on failure.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

const guide = readmeGuide(readFileSync(join(root, 'README.md'), 'utf8'));
// The Playwright the repository tests with: already in npm's cache, so the install is offline where it can be.
const playwrightVersion = JSON.parse(readFileSync(join(root, 'node_modules/@playwright/test/package.json'), 'utf8')).version;

try {
  const tarball = join(work, run('npm', ['pack', '--silent', '--pack-destination', work], root).trim().split('\n').pop());
  // A user's Playwright project before flakeboard: its package.json and one test (no browser needed).
  const app = join(work, 'app');
  mkdirSync(join(app, 'tests'), { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'my-app-tests', private: true, devDependencies: { '@playwright/test': playwrightVersion } }, null, 2));
  writeFileSync(join(app, 'package-lock.json'), JSON.stringify(testedLockfile(), null, 2));
  writeFileSync(join(app, 'tests', 'sum.spec.ts'), "import { expect, test } from '@playwright/test';\ntest('adds', () => expect(1 + 1).toBe(2));\n");
  await check('the tarball ships the binary, the bundle, the built UI, the licence and the README', () => {
    const listing = run('tar', ['-tzf', tarball], work);
    for (const path of ['package/bin/flakeboard.js', 'package/dist/cli.js', 'package/dist/ui/index.html', 'package/LICENSE', 'package/README.md']) {
      if (!listing.includes(path)) throw new Error(`${path} is not in the tarball`);
    }
    if (/package\/(core|server|cli|ui\/src)\//.test(listing)) throw new Error('sources are in the tarball');
  });
  await check('the README packs the clone with npm pack, as this check does', () => {
    if (!guide.inClone.some((line) => /\bnpm pack\b/.test(line))) throw new Error(`the README's clone commands do not pack: ${JSON.stringify(guide.inClone)}`);
  });
  await check("the README's install lines, run in the project, install with no warning about install scripts or engines", () => {
    if (guide.install.length === 0 || !guide.install.some((line) => /\.tgz\b/.test(line))) throw new Error(`no install of the tarball in the README: ${JSON.stringify(guide.install)}`);
    for (const line of guide.install) {
      // The README's placeholder path is the tarball just packed.
      const [cmd, ...args] = line.replace(/\S+\.tgz\b/, tarball).split(/\s+/);
      const done = spawnSync(cmd, [...args, ...(cmd === 'npm' && args[0] === 'install' ? ['--no-audit', '--no-fund'] : [])], { cwd: app, encoding: 'utf8' });
      if (done.status !== 0) throw new Error(`${line} failed:\n${done.stderr}`);
      // npm prints its warnings on stderr, which run() would keep out of its answer.
      if (/install-scripts|allowScripts|EBADENGINE/.test(done.stderr + done.stdout)) throw new Error(`${line} printed a warning a user must decode:\n${done.stderr}`);
    }
    if (!existsSync(join(app, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'))) throw new Error("better-sqlite3's native module was not built: its install script did not run");
  });
  await check("the README's reporter line in playwright.config.ts stores the run, approved, when the tests run", () => {
    writeFileSync(join(app, 'playwright.config.ts'), `import { defineConfig } from '@playwright/test';\nexport default defineConfig({ testDir: './tests', ${guide.reporter} });\n`);
    const [testCommand] = guide.run;
    if (testCommand !== 'npx playwright test') throw new Error(`the README runs the tests with ${JSON.stringify(testCommand)}`);
    const tested = spawnSync('npx', ['--no-install', 'playwright', 'test'], { cwd: app, encoding: 'utf8', env: withoutFlakeboardEnv() });
    if (tested.status !== 0) throw new Error(`npx playwright test failed:\n${tested.stdout}${tested.stderr}`);
    if (!/^flakeboard: stored run 1 "my-app-tests[^"\n]*" \(1 test, 0 failed, 0 flaky; approved\) in \.flakeboard\/flakeboard\.db$/m.test(tested.stdout)) {
      throw new Error(`the reporter did not say it stored the run:\n${tested.stdout}`);
    }
  });
  await check("the README's `npx flakeboard serve` shows that run approved, with its name and uploader, and nothing waiting for review", async () => {
    const serveCommand = guide.run[1] ?? '';
    if (serveCommand !== 'npx flakeboard serve') throw new Error(`the README serves with ${JSON.stringify(serveCommand)}`);
    // On a free port: 4680 may be taken on the machine running the check.
    await serveCheck(app, ['serve', '--port', '0'], async (api) => {
      const pending = await api('/api/uploads/pending');
      if (pending.count !== 0) throw new Error(`runs wait for review: ${JSON.stringify(pending)}`);
      const [latest] = await api('/api/recent-uploads');
      if (latest?.status !== 'approved' || !latest.file_path.startsWith('my-app-tests') || !/^reporter on \S/.test(latest.uploaded_via ?? '')) {
        throw new Error(`unexpected run: ${JSON.stringify(latest)}`);
      }
    });
  });
  await check('npx flakeboard --help runs', () => {
    const help = run('npx', ['--no-install', 'flakeboard', '--help'], app);
    if (!help.includes('Usage: flakeboard')) throw new Error(`unexpected help:\n${help}`);
  });
  await check('npx flakeboard import stores a report', () => {
    const report = { config: { projects: [{ name: 'chromium' }] }, suites: [{ title: 'a', file: 'a.spec.ts', specs: [{ title: 't', file: 'a.spec.ts', line: 1, column: 1, tests: [{ projectName: 'chromium', expectedStatus: 'passed', results: [{ status: 'passed', retry: 0, duration: 1 }] }] }] }], errors: [] };
    writeFileSync(join(app, 'r.json'), JSON.stringify(report));
    const out = JSON.parse(run('npx', ['--no-install', 'flakeboard', 'import', 'r.json', '--json', '--db', 'import.db'], app));
    if (out[0]?.tests !== 1 || out[0]?.runId !== 1) throw new Error(`unexpected import output: ${JSON.stringify(out)}`);
    if (!existsSync(join(app, 'import.db'))) throw new Error('no database at import.db');
  });
  await check('npx flakeboard serve --demo answers the UI and the dashboard, and stops cleanly', () =>
    serveCheck(app, ['serve', '--port', '0', '--demo', '--db', 'serve.db'], async (api) => {
      const body = await api('/api/dashboard?days=0');
      if (!(body.summary?.[0]?.total_runs > 0)) throw new Error(`the dashboard answered ${JSON.stringify(body).slice(0, 300)}`);
    }),
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}

/**
 * The README's guide: the commands of its "Adding flakeboard to your Playwright project" section,
 * block by block (comments dropped): in the clone, in the project, the reporter line, running.
 */
function readmeGuide(readme) {
  const start = readme.indexOf('\n## Adding flakeboard to your Playwright project\n');
  if (start < 0) throw new Error('the README has no "Adding flakeboard to your Playwright project" section');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  const blocks = [...section.matchAll(/^```(\w+)\n([^`]*)^```$/gm)].map(([, lang, text]) => ({ lang, lines: text.split('\n').map((l) => l.replace(/\s+#.*$/, '').trim()).filter(Boolean) }));
  const shells = blocks.filter((b) => b.lang === 'sh');
  const config = blocks.find((b) => b.lang === 'ts');
  if (shells.length !== 3 || !config) throw new Error(`the README's guide should hold three sh blocks and one ts block, not ${JSON.stringify(blocks.map((b) => b.lang))}`);
  return { inClone: shells[0].lines, install: shells[1].lines, reporter: config.lines.join(' ').replace(/,$/, ''), run: shells[2].lines };
}

/**
 * The project's lockfile before the install: its Playwright, plus every package flakeboard runs
 * with at the version the repository's package-lock.json tested. The check is of the tarball, not
 * of the registry of the day: a mirror can list a release whose own dependencies it does not list
 * yet (CI failed once on `@aws-sdk/core@^3.981.2`), and npm reads a package's shrinkwrap only when
 * it comes from a registry, never from a tarball. The README's line still runs as written and
 * still adds flakeboard itself.
 */
function testedLockfile() {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const playwright = new Set();
  const visit = (path) => {
    const entry = lock.packages[path];
    if (!entry || playwright.has(path)) return;
    playwright.add(path);
    for (const name of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) visit(`node_modules/${name}`);
  };
  visit('node_modules/@playwright/test');
  const packages = { '': { name: 'my-app-tests', devDependencies: { '@playwright/test': playwrightVersion } } };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path !== '' && (!entry.dev || playwright.has(path))) packages[path] = entry;
  }
  return { name: 'my-app-tests', lockfileVersion: 3, requires: true, packages };
}

/** The environment without the variables that would send the run elsewhere. */
function withoutFlakeboardEnv() {
  const env = { ...process.env };
  for (const name of ['FLAKEBOARD_DB', 'FLAKEBOARD_SERVER', 'FLAKEBOARD_TOKEN']) delete env[name];
  return env;
}

/** The installed server: its first-start password signs in, and `inspect` reads the API as admin. */
async function serveCheck(cwd, args, inspect) {
  const child = spawn(join(cwd, 'node_modules/.bin/flakeboard'), args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...withoutFlakeboardEnv(), FLAKEBOARD_SCRYPT_N: '1024' } });
  let output = '';
  // A binary that is not there (the install failed) is this check failing, not the script dying.
  let failed = false;
  child.once('error', (error) => {
    failed = true;
    output += `${error.message}\n`;
  });
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    for (let i = 0; i < 600 && !failed && !/serving .* at (http:\/\/\S+)/.test(output); i++) await new Promise((r) => setTimeout(r, 100));
    const url = /serving .* at (http:\/\/\S+)/.exec(output)?.[1];
    const password = /password: (\S+)/.exec(output)?.[1];
    if (!url || !password) throw new Error(`serve did not start:\n${output}`);
    const html = await (await fetch(url)).text();
    if (!html.includes('<div id="root">')) throw new Error('the UI is not served');
    const login = await fetch(new URL('/api/auth/login', url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password }) });
    const { token } = await login.json();
    await inspect(async (path) => {
      const answer = await fetch(new URL(path, url), { headers: { authorization: `Bearer ${token}` } });
      if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}: ${(await answer.text()).slice(0, 300)}`);
      return answer.json();
    });
  } finally {
    child.kill('SIGTERM');
  }
  const code = await exited;
  if (code !== 0) throw new Error(`serve exited ${code}:\n${output}`);
}
const failed = checks.filter(([, ok]) => !ok).length;
console.log(`${checks.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
