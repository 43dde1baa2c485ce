import { cpSync, existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseReport } from '../core/report/normalise.js';
import { parseReportBytes } from '../core/report/parse.js';
import { TEST_SCRYPT } from '../fixtures/testing/app.js';
import { startServe } from '../fixtures/testing/live-serve.js';
import { flakeboardLines, makePlaywrightProject, ROOT, runPlaywright } from '../fixtures/testing/playwright-project.js';
import { makeTempDir } from '../fixtures/testing/temp.js';
import { recentRuns, windowRunCount } from '../server/store/read/analytics.js';
import { hashPassword } from '../server/auth/passwords.js';
import { API_TOKEN_PREFIX, hashToken, newToken } from '../server/auth/tokens.js';
import { createApiToken } from '../server/store/accounts/api-tokens.js';
import { createUser } from '../server/store/accounts/users.js';
import { openStore } from '../server/store/engine/open.js';

/**
 * The reporter as a user has it: a project whose node_modules holds flakeboard (this checkout,
 * built) and Playwright, a config that names `flakeboard/reporter`, real tests in Chromium.
 */
let temp: ReturnType<typeof makeTempDir>;
let project: string;

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist', 'reporter.js'))) throw new Error('dist/reporter.js is missing: run `npm run build` before these tests');
  temp = makeTempDir('flakeboard-reporter-');
  project = makePlaywrightProject(join(temp.dir, 'project'));
});
afterAll(() => temp?.cleanup());

const playwright = (args: string[], options: Parameters<typeof runPlaywright>[3] = {}) => runPlaywright(project, join(temp.dir, 'out'), args, options);

function runsIn(db: string) {
  const sqlite = new Database(db, { readonly: true });
  try {
    return sqlite
      .prepare('SELECT id, file_name, uploaded_via, total_tests, passed_tests, failed_tests, flaky_tests, skipped_tests, status, shard_current, shard_total, build_id, build_url FROM runs ORDER BY id')
      .all() as Array<Record<string, number | string | null>>;
  } finally {
    sqlite.close();
  }
}

describe('flakeboard/reporter', () => {
  it('stores the run in a database, counted at once and named for what it is, read exactly as Playwright’s own JSON report of the same run', async () => {
    const db = join(temp.dir, 'local.db');
    const own = join(temp.dir, 'own.json');
    const ours = join(temp.dir, 'ours.json');
    const { exitCode, stdout } = await playwright(['test'], { reporter: { db, outputFile: ours }, env: { REPORTER_SUITE_JSON: own } });
    // A real failure in the suite: Playwright's verdict is its own, the reporter leaves it alone.
    expect(exitCode).toBe(1);
    // The project's folder names it (no package.json, no git, no CI here); whoever runs the suite owns the database.
    expect(flakeboardLines(stdout)).toEqual([`flakeboard: stored run 1 "project" (4 tests, 2 failed, 1 flaky; approved) in ${db}`]);
    expect(runsIn(db)).toMatchObject([
      { id: 1, file_name: 'project', uploaded_via: `reporter on ${hostname()}`, total_tests: 4, passed_tests: 2, failed_tests: 2, flaky_tests: 1, skipped_tests: 0, status: 'approved' },
    ]);

    // What flakeboard reads from our report equals what it reads from Playwright's.
    const fromOwn = normaliseReport(parseReportBytes(readFileSync(own), 'own.json'));
    const fromOurs = normaliseReport(parseReportBytes(readFileSync(ours), 'ours.json'));
    expect(fromOurs.counts).toEqual(fromOwn.counts);
    expect(fromOurs.tests).toEqual(fromOwn.tests);
    expect(fromOurs.detected).toEqual(fromOwn.detected);
  }, 180_000);

  it('sends the run to a server with a token, and says so in one line', async () => {
    const db = join(temp.dir, 'server.db');
    // The account and its token, written through the store (`user add` and `token create` have tests of their own).
    const token = newToken(API_TOKEN_PREFIX);
    const setup = openStore(db);
    try {
      const rita = await createUser(setup, { username: 'rita', passwordHash: await hashPassword('rita-password-1', TEST_SCRYPT), role: 'admin' });
      await createApiToken(setup, { name: 'ci', tokenHash: hashToken(token), userId: rita.id, scopes: ['upload', 'read'] });
    } finally {
      await setup.close();
    }
    const server = await startServe(db);
    try {
      const { stdout } = await playwright(['test'], { reporter: {}, env: { FLAKEBOARD_SERVER: server.url, FLAKEBOARD_TOKEN: token } });
      expect(flakeboardLines(stdout)).toEqual([`flakeboard: sent run 1 "project" (4 tests, 2 failed, 1 flaky; pending review) to ${server.url}`]);
    } finally {
      await server.stop();
    }
    // The server's rules: an upload waits for review, and says which token sent it.
    expect(runsIn(db)).toMatchObject([{ file_name: 'project', uploaded_via: 'token ci', total_tests: 4, failed_tests: 2, flaky_tests: 1, status: 'pending' }]);
  }, 180_000);

  it('review: true keeps a run stored in a database pending review; the name follows the options and the CI', async () => {
    const db = join(temp.dir, 'review.db');
    const ci = { GITHUB_ACTIONS: 'true', GITHUB_SHA: 'f00d', GITHUB_REF_NAME: 'feature/login', GITHUB_RUN_ID: '77', GITHUB_RUN_ATTEMPT: '1' };
    const { stdout } = await playwright(['test', '--grep', 'greets'], { reporter: { db, review: true, project: 'shop-web' }, env: ci });
    expect(flakeboardLines(stdout)).toEqual([`flakeboard: stored run 1 "shop-web · feature/login · build 77" (1 test, 0 failed, 0 flaky; pending review) in ${db}`]);
    expect(runsIn(db)).toMatchObject([{ file_name: 'shop-web · feature/login · build 77', status: 'pending', build_id: '77' }]);
  }, 180_000);

  it('a server that is down or never answers costs one line and a bounded wait, never the run', async () => {
    const silent = await listenSilently();
    try {
      const port = (silent.address() as { port: number }).port;
      const started = Date.now();
      const hung = await playwright(['test', '--grep', 'greets'], { reporter: { server: `http://127.0.0.1:${port}`, token: 'x'.repeat(43), timeout: 1_000 } });
      expect(hung.exitCode).toBe(0);
      expect(flakeboardLines(hung.stdout)).toEqual([`flakeboard: could not send the run "project" to http://127.0.0.1:${port}: gave up after 1 s (the test run itself is not affected)`]);
      expect(Date.now() - started).toBeLessThan(60_000);
    } finally {
      silent.close();
    }
    const noToken = await playwright(['test', '--grep', 'greets'], { reporter: { server: 'http://127.0.0.1:9' } });
    expect(noToken.exitCode).toBe(0);
    expect(flakeboardLines(noToken.stdout)[0]).toMatch(/could not send the run "project" to http:\/\/127\.0\.0\.1:9: no token/);
  }, 180_000);

  it('each shard is its own run, the shards of one CI build read as one run, and merge-reports over the shards stores the whole run once', async () => {
    const shardsDb = join(temp.dir, 'shards.db');
    // Two jobs of one GitHub Actions run: the build comes from the CI's variables, as `import` reads them.
    const ci = { GITHUB_ACTIONS: 'true', GITHUB_SHA: 'f00d', GITHUB_REF_NAME: 'main', GITHUB_RUN_ID: '4242', GITHUB_RUN_ATTEMPT: '1', GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'o/r' };
    // Each job also keeps its shard's blob; CI then puts all of them in one folder for merge-reports.
    const blobs = join(temp.dir, 'blobs');
    for (const shard of [1, 2]) {
      const own = join(temp.dir, `blob-${shard}`);
      await playwright(['test', `--shard=${shard}/2`], { reporter: { db: shardsDb }, env: { ...ci, REPORTER_SUITE_BLOB_DIR: own } });
      cpSync(own, blobs, { recursive: true });
    }
    const shards = runsIn(shardsDb);
    expect(shards.map((r) => [r.file_name, r.shard_current, r.shard_total, r.build_id, r.build_url])).toEqual([
      ['project · main · build 4242 · shard 1/2', 1, 2, '4242', 'https://github.com/o/r/actions/runs/4242'],
      ['project · main · build 4242 · shard 2/2', 2, 2, '4242', 'https://github.com/o/r/actions/runs/4242'],
    ]);
    expect(shards.reduce((n, r) => n + Number(r.total_tests), 0)).toBe(4);
    // Read as the dashboard reads them: one run of 4 tests with its two shards.
    const store = openStore(shardsDb, { readonly: true });
    try {
      const all = { from: 0, to: Math.floor(Date.now() / 86_400_000) };
      expect(await windowRunCount(store, all)).toBe(1);
      const [run, ...others] = await recentRuns(store, all, 10);
      expect(others).toEqual([]);
      expect(run).toMatchObject({ total_tests: 4, failed_tests: 2, build_id: '4242', git_branch: 'main' });
      expect(run!.shards!.map((s) => [s.shard_current, s.total_tests])).toEqual([[1, shards[0]!.total_tests], [2, shards[1]!.total_tests]]);
    } finally {
      await store.close();
    }

    // merge-reports over the shards' blobs: the whole run, stored once.
    const mergedDb = join(temp.dir, 'merged.db');
    const merged = await playwright(['merge-reports', '-c', 'playwright.config.ts', blobs], { reporter: { db: mergedDb } });
    expect(flakeboardLines(merged.stdout)).toEqual([`flakeboard: stored run 1 "project" (4 tests, 2 failed, 1 flaky; approved) in ${mergedDb}`]);
  }, 300_000);
});

/** A TCP server that takes connections and never answers: a hung flakeboard behind a proxy. */
function listenSilently(): Promise<Server> {
  const server = createServer(() => {});
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}
