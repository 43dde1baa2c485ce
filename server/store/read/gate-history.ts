import { gateKey } from '../../../core/gate/answer.js';
import type { BaseResult, GateTest } from '../../../core/gate/types.js';
import { runGroup } from './build-groups.js';
import type { DialectName } from '../engine/dialect.js';
import type { AnyStore } from '../engine/types.js';

/**
 * Runs that are evidence for the gate: not rejected, not duplicates, and not an upload still
 * waiting for review, whoever sent it. Anyone with a token (a CI secret) may upload a made-up
 * "main" run in which a new failure already happens; until a reviewer keeps it (or a token made
 * with the approve scope does), it must not vouch for that failure. Runs imported from the
 * command line (no uploader) count: whoever runs `import` already has the database file.
 */
export const countedRun = (runs: string) => `${runs}.is_duplicate = 0 AND ${runs}.status != 'rejected' AND NOT (${runs}.status = 'pending' AND ${runs}.uploaded_by IS NOT NULL)`;

/** Newest results kept per test: the gate's rules look at the latest runs and a window. */
const PER_TEST_LIMIT = 200;

// Made once per engine: SQLite's connection keeps prepared statements by their text.
const textsFor = (dialect: DialectName) => ({
  baseRuns: `SELECT count(DISTINCT ${runGroup('runs', dialect)}) AS n FROM runs WHERE git_branch = @base AND started_at >= @since AND ${countedRun('runs')}`,
  results: `
    SELECT runs.id AS run_id, results.started_at, runs.git_commit, results.status, results.passed_on_retry, runs.outage
    FROM tests
    JOIN results ON results.test_id = tests.id AND results.browser = @browser
    JOIN runs ON runs.id = results.run_id
    WHERE tests.file = @file AND tests.title_path = @titlePath
      AND runs.git_branch = @base AND runs.started_at >= @since AND ${countedRun('runs')}
    ORDER BY results.started_at DESC, results.id DESC
    LIMIT ${PER_TEST_LIMIT}`,
});
const TEXTS = { sqlite: textsFor('sqlite'), postgres: textsFor('postgres') };

/**
 * The base-branch results of the checked run's failing tests, newest first, from runs that
 * count (not rejected, not duplicates) since `since`; and how many base-branch runs the
 * window holds, so the gate can say when its history is too thin to judge. It runs in the
 * analytics worker. One indexed lookup per test (tests(file, title_path), then
 * results(test_id, browser, started_at)).
 */
export async function gateHistories(store: AnyStore, query: { tests: readonly GateTest[]; base: string; since: number }): Promise<{ histories: Map<string, BaseResult[]>; baseRuns: number }> {
  const texts = TEXTS[store.dialect];
  const baseRuns = (await store.sql.get<{ n: number }>(texts.baseRuns, { base: query.base, since: query.since }))!;
  const histories = new Map<string, BaseResult[]>();
  for (const test of query.tests) {
    const key = gateKey(test);
    if (histories.has(key) || baseRuns.n === 0) continue;
    const rows = await store.sql.all<{
      run_id: number;
      started_at: number;
      git_commit: string | null;
      status: string;
      passed_on_retry: number;
      outage: number;
    }>(texts.results, { browser: test.browser, file: test.file, titlePath: JSON.stringify(test.titlePath), base: query.base, since: query.since });
    histories.set(
      key,
      rows.map((r) => ({
        runId: r.run_id,
        startedAt: r.started_at,
        commit: r.git_commit,
        status: r.status === 'skipped' ? 'skipped' : r.status === 'passed' ? 'passed' : 'failed',
        passedOnRetry: r.passed_on_retry === 1,
        outageRun: r.outage === 1,
      })),
    );
  }
  return { histories, baseRuns: baseRuns.n };
}
