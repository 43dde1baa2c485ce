import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DashboardResponse, TrendDay } from '../../core/api/analytics.js';
import type { RecentUpload } from '../../core/api/uploads.js';
import { buildTestApp, signIn, type TestApp } from '../../fixtures/testing/app.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';
import { ingestFile } from '../ingest.js';
import { gateHistories } from '../store/read/gate-history.js';

/** A real report of the project's own suite: three file suites, passes, failures, flaky and skipped tests. */
const UNSHARDED = new URL('../../fixtures/reports/own/run-1.json', import.meta.url);
const NOW = Date.parse('2026-11-22T12:00:00Z');

/** The same report cut into one shard per file suite, as `--shard=k/3` writes them. */
function shardFiles(dir: string): string[] {
  const report = JSON.parse(readFileSync(UNSHARDED, 'utf8')) as { config: Record<string, unknown>; suites: unknown[] };
  return report.suites.map((suite, i) => {
    const file = join(dir, `shard-${i + 1}.json`);
    writeFileSync(file, JSON.stringify({ ...report, config: { ...report.config, shard: { current: i + 1, total: report.suites.length } }, suites: [suite] }));
    return file;
  });
}

const apps: TestApp[] = [];
const temps: Array<{ cleanup(): void }> = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  for (const temp of temps.splice(0)) temp.cleanup();
});

async function figures(t: TestApp) {
  const admin = await signIn(t.app, 'admin');
  const dashboard = (await t.app.inject({ url: '/api/dashboard?days=0', headers: admin.headers })).json() as DashboardResponse;
  const trends = (await t.app.inject({ url: '/api/trends', headers: admin.headers })).json() as TrendDay[];
  const s = dashboard.summary[0]!;
  return { dashboard, trends, runs: s.total_runs, totals: { ...s, total_runs: undefined }, passRate: s.total_passed / s.total_tests };
}

describe('the shards of one CI build', () => {
  it('count as one run with per-shard detail, and every figure equals one unsharded report of the same tests', async () => {
    const temp = makeTempDir('flakeboard-shards-');
    temps.push(temp);
    const whole = await buildTestApp({ now: () => NOW });
    const sharded = await buildTestApp({ now: () => NOW });
    apps.push(whole, sharded);
    await ingestFile(whole.store, UNSHARDED.pathname, { fileName: 'run-1.json', gitBranch: 'main', gitCommit: 'c0ffee' });
    const build = { buildId: '9001', buildUrl: 'https://ci.example.com/builds/9001', gitBranch: 'main', gitCommit: 'c0ffee' };
    // Out of order, as parallel CI jobs finish.
    const files = shardFiles(temp.dir);
    for (const file of [files[2]!, files[0]!, files[1]!]) await ingestFile(sharded.store, file, { fileName: file, ...build });

    const one = await figures(whole);
    const three = await figures(sharded);
    expect(one.runs).toBe(1);
    expect(three.runs).toBe(1);
    expect(three.totals).toEqual(one.totals);
    expect(three.passRate).toBe(one.passRate);
    expect(three.trends).toEqual(one.trends);
    expect(three.trends.reduce((n, d) => n + d.total_tests, 0)).toBe(one.totals.total_tests);
    expect(three.dashboard.browserComparison).toEqual(one.dashboard.browserComparison);
    expect(three.dashboard.flakyCount).toBe(one.dashboard.flakyCount);

    expect(three.dashboard.recentRuns).toHaveLength(1);
    const run = three.dashboard.recentRuns[0]!;
    const plain = one.dashboard.recentRuns[0]!;
    expect(run).toMatchObject({ build_id: '9001', build_url: 'https://ci.example.com/builds/9001', git_branch: 'main' });
    expect([run.total_tests, run.passed_tests, run.failed_tests, run.skipped_tests]).toEqual([plain.total_tests, plain.passed_tests, plain.failed_tests, plain.skipped_tests]);
    expect(plain.shards).toBeNull();
    expect(run.shards!.map((s) => [s.shard_current, s.shard_total])).toEqual([[1, 3], [2, 3], [3, 3]]);
    expect(run.shards!.reduce((n, s) => n + s.total_tests, 0)).toBe(run.total_tests);
    expect(run.shards!.every((s) => s.total_tests > 0)).toBe(true);
  });

  it('another build, branch or commit is another run; an unsharded run with a build id stays its own', async () => {
    const temp = makeTempDir('flakeboard-shards-');
    temps.push(temp);
    const t = await buildTestApp({ now: () => NOW });
    apps.push(t);
    const [first, second] = shardFiles(temp.dir);
    await ingestFile(t.store, first!, { fileName: 'a', buildId: '1', gitBranch: 'main', gitCommit: 'c1' });
    await ingestFile(t.store, second!, { fileName: 'b', buildId: '2', gitBranch: 'main', gitCommit: 'c1' });
    await ingestFile(t.store, UNSHARDED.pathname, { fileName: 'c', buildId: '1', gitBranch: 'main', gitCommit: 'c1' });
    const { runs, dashboard } = await figures(t);
    expect(runs).toBe(3);
    expect(dashboard.recentRuns.map((r) => r.shards?.length ?? null).sort()).toEqual([1, 1, null]);
  });
});

describe('the CI gate', () => {
  it('counts the shards of one build as one base-branch run when it judges whether history is enough', async () => {
    const temp = makeTempDir('flakeboard-shards-');
    temps.push(temp);
    const t = await buildTestApp({ now: () => NOW });
    apps.push(t);
    // Imported from the command line, pending, while a member account exists (buildTestApp makes one): such runs count.
    for (const file of shardFiles(temp.dir)) await ingestFile(t.store, file, { fileName: file, buildId: '1', gitBranch: 'main', gitCommit: 'c1' });
    expect((await gateHistories(t.store, { tests: [], base: 'main', since: 0 })).baseRuns).toBe(1);
    await ingestFile(t.store, UNSHARDED.pathname, { fileName: 'whole', gitBranch: 'main', gitCommit: 'c2' });
    expect((await gateHistories(t.store, { tests: [], base: 'main', since: 0 })).baseRuns).toBe(2);
  });
});

describe('the CI build of an upload', () => {
  const upload = (t: TestApp, headers: Record<string, string>, metadata: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/upload', headers, payload: { testResults: JSON.parse(readFileSync(UNSHARDED, 'utf8')) as unknown, metadata } });

  it('is stored from the metadata and shown on the run', async () => {
    const t = await buildTestApp({ now: () => NOW });
    apps.push(t);
    const admin = await signIn(t.app, 'admin');
    const res = await upload(t, admin.headers, { buildId: '77-2', buildUrl: 'https://github.com/o/r/actions/runs/77' });
    expect(res.statusCode).toBe(200);
    const { runId } = res.json() as { runId: number };
    const detail = (await t.app.inject({ url: `/api/uploads/${runId}`, headers: admin.headers })).json() as { upload: RecentUpload };
    expect(detail.upload).toMatchObject({ build_id: '77-2', build_url: 'https://github.com/o/r/actions/runs/77', shard_current: null, shard_total: null });
  });

  it('refuses a build URL that is not http(s), or too long, and a build id that is too long, storing nothing', async () => {
    const t = await buildTestApp({ now: () => NOW });
    apps.push(t);
    const admin = await signIn(t.app, 'admin');
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ buildUrl: 'javascript:alert(1)' }, /buildUrl: the build URL must start with http:\/\/ or https:\/\/, not javascript:/],
      [{ buildUrl: 'ci/builds/1' }, /buildUrl: the build URL "ci\/builds\/1" is not an absolute URL/],
      [{ buildUrl: `https://ci.example.com/${'x'.repeat(1000)}` }, /buildUrl must NOT have more than 1000 characters/],
      [{ buildId: 'x'.repeat(201) }, /buildId: the build id is 201 characters long; at most 200 are kept/],
      [{ buildId: 42 }, /buildId must be string/],
    ];
    for (const [metadata, message] of cases) {
      const res = await upload(t, admin.headers, metadata);
      expect(res.statusCode, JSON.stringify(metadata).slice(0, 60)).toBe(400);
      expect((res.json() as { error: string }).error).toMatch(message);
    }
    expect(await t.store.sql.value('SELECT count(*) FROM runs')).toBe(0);
  });
});
