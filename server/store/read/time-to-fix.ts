import { flakeEpisodes, isFlakeDay, type FlakeDay, type FlakeEpisode } from '../../../core/analytics/formulas.js';
import { dialectFor } from '../engine/dialect.js';
import type { AnyStore } from '../engine/types.js';

// The flaky rule of docs/screens.md#flaky over all history: the tests there are episodes of.
const FLAKY_IDS = 'SELECT test_id FROM test_totals x WHERE x.scored_passed + x.scored_failed > 0 AND (x.passed_on_retry > 0 OR x.changes >= 2)';

// Each day of a test, its browsers together: the runs that ran outside outages and whether
// any failed or passed only on a retry. A daily rollup, never the results: every branch's, or
// one branch's (branch_day_stats) when a branch is chosen.
const DAYS = (table: string, restriction: string) => `
  SELECT d.test_id, d.day, sum(d.scored_passed + d.scored_failed) AS runs, sum(d.scored_failed) AS failed, sum(d.passed_on_retry) AS passed_on_retry
  FROM ${table} d WHERE ${restriction}
  GROUP BY d.test_id, d.day ORDER BY d.test_id, d.day`;

/**
 * How the tests are named. Reading the days from one on (what an upload added), SQLite read the
 * tests' rows by the primary key, every day of each, and dropped the older ones (255 to 395 ms
 * of CPU for the last day of 5,000 flaky tests at ten million results); with the tests only
 * checked (`+` keeps SQLite from seeking by them) it reads the by-day index's range of those
 * days (17 to 19 ms; docs/benchmarks.md#ten-million-results). Every day of the tests: the
 * primary key, as SQLite chooses.
 */
const testColumn = (store: AnyStore, fromDay: number | null) => (store.dialect === 'sqlite' && fromDay !== null ? '+d.test_id' : 'd.test_id');

/**
 * Each flaky test's days, from `fromDay` on (every day when null): every branch's, or one
 * branch's when `branch` is given; of the given tests (by id) only, or of every flaky test when
 * `testIds` is null. A test flaky on a branch is flaky over every branch, so the all-branch rule
 * only narrows which tests' days are read.
 */
export async function flakeDaysOf(store: AnyStore, testIds: readonly number[] | null, branch: string | null = null, fromDay: number | null = null): Promise<Map<number, FlakeDay[]>> {
  const byTest = new Map<number, FlakeDay[]>();
  if (testIds !== null && testIds.length === 0) return byTest;
  const d = dialectFor(store.dialect);
  const test = testColumn(store, fromDay);
  const restrictions = [testIds === null ? `${test} IN (${FLAKY_IDS})` : `${d.inJsonNumbers(test, '@ids')} AND ${test} IN (${FLAKY_IDS})`];
  const params: Record<string, string | number> = testIds === null ? {} : { ids: JSON.stringify([...new Set(testIds)]) };
  if (branch !== null) {
    restrictions.unshift(`d.branch_id = (SELECT id FROM branches WHERE name = ${d.typed('@branch', 'TEXT')})`);
    params.branch = branch;
  }
  if (fromDay !== null) {
    restrictions.push('d.day >= @fromDay');
    params.fromDay = fromDay;
  }
  const rows = await store.sql.all<{ test_id: number; day: number; runs: number; failed: number; passed_on_retry: number }>(
    DAYS(branch === null ? 'daily_test_stats' : 'branch_day_stats', restrictions.join(' AND ')),
    params,
  );
  for (const row of rows) {
    const id = Number(row.test_id);
    let days = byTest.get(id);
    if (!days) byTest.set(id, (days = []));
    days.push({ day: Number(row.day), runs: Number(row.runs), flaked: isFlakeDay(Number(row.failed), Number(row.passed_on_retry)) });
  }
  return byTest;
}

/** The flake episodes of the given tests (by id), or of every flaky test when `testIds` is null; on one branch's days when `branch` is given. */
export async function flakeEpisodesOf(store: AnyStore, testIds: readonly number[] | null, branch: string | null = null): Promise<Map<number, FlakeEpisode[]>> {
  const days = await flakeDaysOf(store, testIds, branch);
  return new Map([...days].map(([id, list]) => [id, flakeEpisodes(list)]));
}

/** The ids of the tests flaky over all history and every branch (the rule above). */
export async function flakyTestIds(store: AnyStore): Promise<Set<number>> {
  const rows = await store.sql.all<{ test_id: number }>(`SELECT DISTINCT test_id FROM (${FLAKY_IDS}) f`);
  return new Set(rows.map((r) => Number(r.test_id)));
}

/** When each test (title, and file unless the entry names none) was last put in quarantine, by test id. */
export async function quarantinedAtOf(store: AnyStore, tests: ReadonlyArray<{ test_id: number; title: string; file: string }>): Promise<Map<number, number>> {
  const at = new Map<number, number>();
  if (tests.length === 0) return at;
  const titles = [...new Set(tests.map((t) => t.title))];
  // The titles as a JSON array parameter, as inJsonNumbers takes numbers.
  const inTitles = store.dialect === 'postgres' ? 'title IN (SELECT value FROM json_array_elements_text(CAST(@titles AS json)))' : 'title IN (SELECT value FROM json_each(@titles))';
  const entries = await store.sql.all<{ title: string; file: string | null; created_at: number }>(
    `SELECT title, file, created_at FROM quarantine WHERE ${inTitles} ORDER BY created_at`,
    { titles: JSON.stringify(titles) },
  );
  for (const test of tests) {
    for (const e of entries) if (e.title === test.title && (e.file === null || e.file === test.file)) at.set(test.test_id, Number(e.created_at));
  }
  return at;
}
