import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine, freshDatabase, sameDataOn } from '../../fixtures/testing/engines.js';
import { buildHistoryDb } from '../../fixtures/testing/history-db.js';
import { OWN_REPORTS_DIR, publicReports } from '../../fixtures/testing/public-reports.js';
import type { GateTest } from '../../core/gate/types.js';
import { ingestFile } from '../ingest.js';
import { browserTotals, recentRuns, storedRunSpan, windowRunCount, windowSummary, type TestBrowserTotals } from '../store/read/analytics.js';
import { gateHistories } from '../store/read/gate-history.js';
import { pairTotals, pairTotalsOf } from '../store/read/pair-totals.js';
import { openStore } from '../store/engine/open.js';
import type { AnyStore, Store } from '../store/engine/types.js';
import { activeQuarantine, addQuarantine, listQuarantine, removeQuarantine } from '../store/read/quarantine.js';
import { loadTestHistory } from '../store/read/test-history.js';
import { QUERIES } from './queries.js';

/**
 * The report, run, gate and branch reads give the same answers on PostgreSQL as on
 * SQLite for one history: the own suite's three runs (two on main, one on a feature branch, a
 * quarantine entry) and the public sample reports (many days, shards, retries, many browsers).
 * Each answer is also checked against what the data holds, so two empty answers cannot pass.
 */

const DAY_MS = 86_400_000;
let history: { dir: string; cleanup: () => void } | undefined;
let sqlite: Store;
/** Facts of the history, read from SQLite's tables directly. */
let facts: {
  now: number;
  busiest: { title: string; file: string; browser: string; n: number };
  bigRun: { id: number; total: number; failed: number; passed: number };
  results: number;
  /** Runs as the screens count them: the shards of a build once. */
  runGroups: number;
  /** Builds stored as more than one shard. */
  shardedBuilds: number;
  gateTests: GateTest[];
};

beforeAll(async () => {
  const built = await buildHistoryDb();
  history = built;
  sqlite = openStore(built.db);
  // Public reports on two branches, the sharded ones under one build id (and commit) per branch.
  // Those without a start time are dated the day before the own runs, not the day the test runs:
  // the windows below end at the newest run, and must hold the same runs whatever today is.
  const undated = Date.parse('2026-11-20T12:00:00Z');
  publicReports().forEach((path, i) => {
    const branch = i % 2 === 0 ? 'main' : 'release/Two';
    const sharded = /shard/.test(path);
    try {
      ingestFile(sqlite, path, { fileName: path, gitBranch: branch, gitCommit: sharded ? 'shards' : `c${i}`, buildId: sharded ? `build-${branch}` : null, fallbackStartedAt: undated, approve: true, fallbackGit: () => ({ branch: null, commit: null }) });
    } catch {
      // A sample that is not a storable report (its test elsewhere says so) adds nothing here.
    }
  });
  // The second shard of the public shard 1 of 2 (the own suite's first run under that build): one run on the screens.
  const second = join(built.dir, 'shard-2-of-2.json');
  const own = JSON.parse(readFileSync(join(OWN_REPORTS_DIR, 'run-1.json'), 'utf8')) as { config: Record<string, unknown> };
  writeFileSync(second, JSON.stringify({ ...own, config: { ...own.config, shard: { current: 2, total: 2 } } }));
  if (publicReports().some((path) => /shard1of2/.test(path))) {
    ingestFile(sqlite, second, { fileName: 'shard-2-of-2.json', gitBranch: 'release/Two', gitCommit: 'shards', buildId: 'build-release/Two', fallbackStartedAt: undated, approve: true, fallbackGit: () => ({ branch: null, commit: null }) });
  }
  const q = <T>(text: string) => sqlite.sqlite.prepare(text).get() as T;
  const newest = q<{ m: number }>('SELECT max(started_at) AS m FROM runs').m;
  const busiest = q<{ title: string; file: string; browser: string; n: number }>(
    `SELECT t.title, t.file, r.browser, count(*) AS n FROM results r JOIN tests t ON t.id = r.test_id GROUP BY t.id, r.browser ORDER BY n DESC, t.id, r.browser LIMIT 1`,
  );
  const bigRun = q<{ id: number; total: number; failed: number; passed: number }>(
    `SELECT run_id AS id, count(*) AS total, sum(status IN ('failed', 'timedOut')) AS failed, sum(status = 'passed') AS passed FROM results GROUP BY run_id ORDER BY total DESC, run_id LIMIT 1`,
  );
  const failing = sqlite.sqlite
    .prepare(
      `SELECT DISTINCT t.title, t.title_path, t.file, r.project_name, r.browser FROM results r JOIN tests t ON t.id = r.test_id JOIN runs ON runs.id = r.run_id
       WHERE runs.git_branch = 'main' AND r.status IN ('failed', 'timedOut') ORDER BY t.id, r.browser LIMIT 6`,
    )
    .all() as Array<{ title: string; title_path: string; file: string; project_name: string; browser: string }>;
  facts = {
    now: newest + DAY_MS,
    busiest,
    bigRun,
    results: q<{ n: number }>('SELECT count(*) AS n FROM results').n,
    runGroups: q<{ n: number }>(`SELECT count(DISTINCT CASE WHEN build_id IS NOT NULL AND shard_total > 1 THEN build_id || '/' || shard_total ELSE 'r' || id END) AS n FROM runs WHERE is_duplicate = 0 AND status != 'rejected'`).n,
    shardedBuilds: q<{ n: number }>(`SELECT count(*) AS n FROM (SELECT build_id FROM runs WHERE build_id IS NOT NULL AND shard_total > 1 GROUP BY build_id, shard_total HAVING count(*) > 1)`).n,
    gateTests: failing.map((f) => ({ title: f.title, titlePath: JSON.parse(f.title_path) as string[], file: f.file, project: f.project_name, browser: f.browser, passedOnRetry: false })),
  };
}, 120_000);

afterAll(async () => {
  await sqlite?.close();
  history?.cleanup();
});

describeEachEngine('report, run, gate and branch reads on one history', (engine) => {
  let store: AnyStore;
  let remove: () => Promise<void>;
  beforeAll(async () => {
    ({ store, remove } = await sameDataOn(engine, sqlite));
  }, 120_000);
  afterAll(async () => {
    await remove?.();
  });

  /** The answer on this engine, which must equal SQLite's. */
  async function same<N extends keyof typeof QUERIES>(name: N, args: Parameters<(typeof QUERIES)[N]>[1]) {
    const call = QUERIES[name] as (s: AnyStore, a: unknown) => unknown;
    const answer = await call(store, args);
    expect(answer).toEqual(await call(sqlite, args));
    return answer as Awaited<ReturnType<(typeof QUERIES)[N]>>;
  }

  it('testDetails: a test on one browser, with its file and without, paged', async () => {
    const { title, file, browser, n } = facts.busiest;
    expect(n).toBeGreaterThan(2);
    const withFile = await same('testDetails', { title, file, browser, page: 1, pageSize: 100 });
    expect(withFile.total).toBe(n);
    expect(withFile.items).toHaveLength(n);
    expect(withFile.items.every((r) => r.test_file === file)).toBe(true);
    const anyFile = await same('testDetails', { title, file: null, browser, page: 1, pageSize: 2 });
    expect(anyFile.total).toBeGreaterThanOrEqual(n);
    expect(anyFile.items).toHaveLength(2);
    const second = await same('testDetails', { title, file, browser, page: 2, pageSize: 2 });
    expect(second.items).toEqual(withFile.items.slice(2, 4));
  });

  it('dailyStats: the test’s days, their runs adding up to its results', async () => {
    const { title, file, browser, n } = facts.busiest;
    const days = await same('dailyStats', { title, file, browser, days: 0, now: facts.now });
    expect(days.length).toBeGreaterThan(0);
    expect(days.reduce((sum, d) => sum + d.total_runs, 0)).toBe(n);
  });

  it('trendDays: every day of the window, the newest with the own runs', async () => {
    const days = await same('trendDays', { days: 30, now: facts.now });
    expect(days).toHaveLength(30);
    expect(days.reduce((sum, d) => sum + d.total_tests, 0)).toBeGreaterThan(0);
  });

  it('slowTests: pages of the all-time list and of a window, with their counts', async () => {
    const all = await same('slowTests', { days: 0, now: facts.now, page: 1, pageSize: 500 });
    expect(all.total).toBeGreaterThan(10);
    expect(all.items).toHaveLength(all.total);
    const page = await same('slowTests', { days: 0, now: facts.now, page: 3, pageSize: 4 });
    expect(page.items).toEqual(all.items.slice(8, 12));
    const week = await same('slowTests', { days: 7, now: facts.now, page: 1, pageSize: 5 });
    expect(week.items.length).toBeGreaterThan(0);
    expect(week.total).toBeLessThanOrEqual(all.total);
  });

  it('errorPatterns: the patterns with their tests and browsers, paged', async () => {
    const all = await same('errorPatterns', { days: 0, now: facts.now, page: 1, pageSize: 500 });
    expect(all.total).toBeGreaterThan(2);
    expect(all.items).toHaveLength(all.total);
    expect(all.items.reduce((sum, p) => sum + p.frequency, 0)).toBe(all.counts.failures);
    expect(all.items.every((p) => (p.affected_test_titles ?? []).length > 0 && p.affected_browsers.length > 0)).toBe(true);
    const page = await same('errorPatterns', { days: 0, now: facts.now, page: 2, pageSize: 2 });
    expect(page.items).toEqual(all.items.slice(2, 4));
  });

  it('gate: the failing tests’ main histories and the quarantine in force', async () => {
    expect(facts.gateTests.length).toBeGreaterThan(0);
    const request = { tests: facts.gateTests, counts: { tests: 50, failed: facts.gateTests.length, flaky: 0, skipped: 0 }, base: 'main', days: 100_000, now: facts.now };
    const answer = await same('gate', request);
    expect(answer.base).toBe('main');
    expect(answer.baseRuns).toBeGreaterThan(1);
    const found = await gateHistories(store, { tests: facts.gateTests, base: 'main', since: 0 });
    expect(found).toEqual(await gateHistories(sqlite, { tests: facts.gateTests, base: 'main', since: 0 }));
    expect([...found.histories.values()].every((h) => h.length > 0)).toBe(true);
    // No base given: main, found first.
    expect((await same('gate', { ...request, base: null })).base).toBe('main');
  });

  it('runSummary: the run’s counts, slowest, retried tests and top errors', async () => {
    const { id, total, failed, passed } = facts.bigRun;
    const summary = await same('runSummary', { runId: id, resultsOf: id });
    expect(summary.testResultsTotal).toBe(total);
    expect(summary.testsByStatus.passed).toBe(passed);
    expect(summary.testsByStatus.failed + summary.testsByStatus.timedOut).toBe(failed);
    expect(summary.slowestTests).toHaveLength(Math.min(10, total));
    expect(summary.testResults.length).toBeGreaterThan(0);
  });

  it('runResults: each sort and status, paged, and a search', async () => {
    const { id, total, failed } = facts.bigRun;
    for (const sort of ['status', 'duration', 'name'] as const) {
      const whole = await same('runResults', { runId: id, page: 1, pageSize: 1000, sort, status: 'all' });
      expect(whole.total).toBe(total);
      expect(whole.items).toHaveLength(total);
      expect((await same('runResults', { runId: id, page: 2, pageSize: 5, sort, status: 'all' })).items).toEqual(whole.items.slice(5, 10));
    }
    expect((await same('runResults', { runId: id, page: 1, pageSize: 1000, status: 'failed' })).total).toBe(failed);
    const word = (await same('runResults', { runId: id, page: 1, pageSize: 1, sort: 'name', status: 'all' })).items[0]!.test_title.split(' ')[0]!.toUpperCase();
    const found = await same('runResults', { runId: id, page: 1, pageSize: 1000, status: 'all', search: word });
    expect(found.total).toBeGreaterThan(0);
    expect(found.total).toBeLessThanOrEqual(total);
    expect(found.items).toHaveLength(found.total);
  });

  it('branches: newest first, a search narrows them', async () => {
    const all = await same('branches', { search: null, limit: 50 });
    expect(all.branches.map((b) => b.name).sort()).toEqual(['feature/tax', 'main', ...(publicReports().length > 1 ? ['release/Two'] : [])].sort());
    expect((await same('branches', { search: 'tax', limit: 50 })).branches.map((b) => b.name)).toEqual(['feature/tax']);
    expect((await same('branches', { search: 'a', limit: 1 })).branches).toHaveLength(1);
  });

  it('the dashboard’s store reads: window totals, runs (shards as one) and the stored span', async () => {
    const all = { from: 0, to: 10_000_000 };
    const equal = async <T>(read: (s: AnyStore) => Promise<T>) => {
      const answer = await read(store);
      expect(answer).toEqual(await read(sqlite));
      return answer;
    };
    const span = await equal((s) => storedRunSpan(s));
    expect(span.runs).toBe(facts.runGroups);
    expect((await equal((s) => storedRunSpan(s, 'feature/tax'))).runs).toBe(1);
    expect(await equal((s) => windowRunCount(s, all))).toBe(facts.runGroups);
    // The history's two runs on main, and the public reports' when ../shared is there.
    expect(await equal((s) => windowRunCount(s, all, 'main'))).toBeGreaterThanOrEqual(publicReports().length > 0 ? 3 : 2);
    const summary = await equal((s) => windowSummary(s, all));
    expect([summary.total_runs, summary.total_tests]).toEqual([facts.runGroups, facts.results]);
    const browsers = await equal((s) => browserTotals(s, all));
    expect(browsers.reduce((n, b) => n + b.total, 0)).toBe(facts.results);
    const runs = await equal((s) => recentRuns(s, all, 100));
    expect(runs).toHaveLength(facts.runGroups);
    expect(await equal((s) => recentRuns(s, all, 100, 'feature/tax'))).toHaveLength(1);
    const sharded = runs.filter((r) => r.shards !== null && r.shards.length > 1);
    expect(sharded).toHaveLength(facts.shardedBuilds);
    if (publicReports().length > 0) expect(facts.shardedBuilds).toBe(1);
  });

  it('the flaky reads’ totals per test and browser (pair-totals.ts, for analytics/flaky.ts)', async () => {
    const all = { from: 0, to: 10_000_000 };
    const every = await pairTotals(store, all, false);
    const byKey = (rows: TestBrowserTotals[]) => [...rows].sort((a, b) => a.test_id - b.test_id || (a.browser < b.browser ? -1 : a.browser > b.browser ? 1 : 0));
    expect(byKey(every)).toEqual(byKey(await pairTotals(sqlite, all, false)));
    expect(every.reduce((n, t) => n + t.runs, 0)).toBe(facts.results);
    const flaky = await pairTotals(store, all, true);
    expect(flaky.length).toBeGreaterThan(0);
    expect(byKey(flaky)).toEqual(byKey(await pairTotals(sqlite, all, true)));
    const ids = flaky.slice(0, 3).map((t) => t.test_id);
    const some = await pairTotalsOf(store, all, ids);
    expect(new Set(some.map((t) => t.test_id))).toEqual(new Set(ids));
    expect(byKey(some)).toEqual(byKey(await pairTotalsOf(sqlite, all, ids)));
  });

  it('test history of the AI analysis: the same entries', async () => {
    const { title, file, n } = facts.busiest;
    const loaded = await loadTestHistory(store, { title, file });
    expect(loaded).toEqual(await loadTestHistory(sqlite, { title, file }));
    expect(loaded.entries.length).toBeGreaterThanOrEqual(n);
  });
});

describeEachEngine('the quarantine list', (engine) => {
  const db = freshDatabase(engine);
  let store: AnyStore;
  beforeAll(() => void ([store] = db.stores as [AnyStore]));

  it('adds, lists, tells the entries in force, and removes', async () => {
    const entry = { title: 'pays', file: 'cart.spec.ts', project: null, reason: 'TICKET-1', owner: 'shop', createdBy: null };
    const forever = await addQuarantine(store, { ...entry, expiresAt: null }, 1_000);
    const expiring = await addQuarantine(store, { ...entry, title: 'refunds', expiresAt: 5_000 }, 2_000);
    expect(expiring).toBeGreaterThan(forever);
    const listed = await listQuarantine(store);
    expect(listed.map((q) => [q.id, q.title, q.createdAt, q.expiresAt])).toEqual([
      [expiring, 'refunds', 2_000, 5_000],
      [forever, 'pays', 1_000, null],
    ]);
    expect((await activeQuarantine(store, 4_000)).map((q) => q.id)).toEqual([expiring, forever]);
    expect((await activeQuarantine(store, 6_000)).map((q) => q.id)).toEqual([forever]);
    expect(await removeQuarantine(store, forever, null, 7_000)).toBe(true);
    expect(await removeQuarantine(store, forever, null, 8_000)).toBe(false);
    expect((await listQuarantine(store)).map((q) => q.id)).toEqual([expiring]);
    expect((await listQuarantine(store, { includeRemoved: true })).find((q) => q.id === forever)?.removedAt).toBe(7_000);
  });
});
