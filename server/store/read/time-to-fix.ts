import { flakeEpisodes, isFlakeDay, type FlakeDay, type FlakeEpisode } from '../../../core/analytics/formulas.js';
import { dialectFor, type DialectName } from '../engine/dialect.js';
import type { AnyStore } from '../engine/types.js';

// The flaky rule of docs/screens.md#flaky over all history: the tests there are episodes of.
const FLAKY_PAIRS = 'FROM test_totals x WHERE x.scored_passed + x.scored_failed > 0 AND (x.passed_on_retry > 0 OR x.changes >= 2)';
const FLAKY_IDS = `SELECT test_id ${FLAKY_PAIRS}`;

// Each test's day rows (one per browser and day) as one text of `day,runs,failed,retried,`
// groups: the runs that ran outside outages, how many failed and how many passed only on a
// retry. Grouped by test alone, which the key's order gives SQLite without a sort: grouping
// by test and day sorted the 2,000,000 rows of the flaky tests at ten million results (2.5 s
// of 2.7; 0.6 to 1.0 s this way). The days are summed in flakeDaysOf. A daily rollup, never the
// results: every branch's, or one branch's (branch_day_stats) when a branch is chosen.
const DAYS = (dialect: DialectName, from: string, restriction: string, test: string) => {
  const d = dialectFor(dialect);
  const row = ['d.day', 'd.scored_passed + d.scored_failed', 'd.scored_failed', 'd.passed_on_retry'].map((e) => `${d.typed(`(${e})`, 'TEXT')} || ','`).join(' || ');
  return `SELECT ${test} AS test_id, ${d.concatInOrder(row, 'd.day', 'inOrder')} AS days FROM ${from} WHERE ${restriction} GROUP BY ${test}`;
};

/** The numbers of a DAYS text, read into `numbers` (grown as needed); how many there are. */
let numbers = new Float64Array(4096);
function readNumbers(text: string): number {
  // Character by character: text.split(',') made a string of each of the 8,000,000 numbers
  // of the flaky tests' days at ten million results (docs/benchmarks.md#ten-million-results).
  let count = 0;
  let value = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 44) {
      if (count === numbers.length) {
        const grown = new Float64Array(numbers.length * 2);
        grown.set(numbers);
        numbers = grown;
      }
      numbers[count++] = value;
      value = 0;
    } else {
      value = value * 10 + (code - 48);
    }
  }
  return count;
}

/** A test's day rows (DAYS' text: whole numbers, each followed by a comma) as its days in order, each day's browsers summed. */
function daysOfText(text: string): FlakeDay[] {
  const count = readNumbers(text);
  const rows = count - (count % 4);
  let first = Infinity;
  let last = -Infinity;
  for (let i = 0; i < rows; i += 4) {
    const day = numbers[i]!;
    if (day < first) first = day;
    if (day > last) last = day;
  }
  if (first > last) return [];
  // By offset from the first day: a test's days span at most its history, a year or so.
  const span = last - first + 1;
  const present = new Uint8Array(span);
  const runs = new Float64Array(span);
  const failed = new Float64Array(span);
  const retried = new Float64Array(span);
  for (let i = 0; i < rows; i += 4) {
    const at = numbers[i]! - first;
    present[at] = 1;
    runs[at]! += numbers[i + 1]!;
    failed[at]! += numbers[i + 2]!;
    retried[at]! += numbers[i + 3]!;
  }
  const days: FlakeDay[] = [];
  for (let at = 0; at < span; at++) if (present[at]) days.push({ day: first + at, runs: runs[at]!, flaked: isFlakeDay(failed[at]!, retried[at]!) });
  return days;
}

/**
 * How the tests are named. Reading the days from one on (what an upload added), SQLite read the
 * tests' rows by the primary key, every day of each, and dropped the older ones (255 to 395 ms
 * of CPU for the last day of 5,000 flaky tests at ten million results); with the tests only
 * checked (`+` keeps SQLite from seeking by them) it reads the by-day index's range of those
 * days (17 to 19 ms; docs/benchmarks.md#ten-million-results). Every day of the tests: the
 * primary key, as SQLite chooses, which gives the groups by test in order.
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
  const table = branch === null ? 'daily_test_stats' : 'branch_day_stats';
  // The days from one on through the by-day index (above), named: grouped by test, SQLite's
  // planner otherwise skip-scans the primary key for the groups' order.
  const read = fromDay === null ? `${table} d` : d.through(`${table} d`, `${table}_by_day`);
  const rows = await store.sql.all<{ test_id: number; days: string }>(DAYS(store.dialect, read, restrictions.join(' AND '), test), params);
  // In test order, as a whole read's groups come.
  rows.sort((a, b) => Number(a.test_id) - Number(b.test_id));
  for (const row of rows) byTest.set(Number(row.test_id), daysOfText(row.days));
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

/** How many results the flaky tests have over all history and every branch: at most one day row each, so a bound on what flakeDaysOf reads. */
export async function flakyTestResults(store: AnyStore): Promise<number> {
  return Number((await store.sql.get<{ n: number }>(`SELECT coalesce(sum(x.runs), 0) AS n ${FLAKY_PAIRS}`))?.n ?? 0);
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
