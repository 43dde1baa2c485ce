import { errorPatternOf, errorPatternOfHead, topPatterns } from '../../core/errors/first-line.js';
import { RUN_FLAKY_SHOWN, RUN_RESULTS_PAGE_SIZE, type UploadDetailResponse } from '../../core/api/uploads.js';
import type { SqliteDatabase } from './open.js';
import { perConnection } from './per-connection.js';
import { RESULT_COLUMNS, runResultsPage, toResultRow, type RawResultRow } from './run-results.js';

export type RunSummary = Omit<UploadDetailResponse, 'upload'>;

/** Error first lines are read from this many characters; a line that runs past them is read whole. */
const HEAD_CHARS = 4096;

const statementsFor = perConnection((sqlite: SqliteDatabase) => ({
  run: sqlite.prepare('SELECT total_tests, passed_tests, failed_tests, skipped_tests, flaky_tests, duration_ms FROM runs WHERE id = ?'),
  byStatus: sqlite.prepare('SELECT status, count(*) AS n, total(duration_ms) AS duration FROM results WHERE run_id = ? GROUP BY status'),
  categories: sqlite.prepare(
    `SELECT error_category AS category, count(*) AS count FROM results
     WHERE run_id = ? AND status IN ('failed', 'timedOut') AND error_category IS NOT NULL GROUP BY error_category ORDER BY count DESC, category`,
  ),
  flaky: sqlite.prepare(`SELECT ${RESULT_COLUMNS} FROM results r JOIN tests t ON t.id = r.test_id WHERE r.run_id = ? AND r.retries > 0 ORDER BY r.id LIMIT ${RUN_FLAKY_SHOWN}`),
  flakyCount: sqlite.prepare('SELECT count(*) FROM results WHERE run_id = ? AND retries > 0').pluck(),
  slowest: sqlite.prepare(`SELECT ${RESULT_COLUMNS} FROM results r JOIN tests t ON t.id = r.test_id WHERE r.run_id = ? ORDER BY r.duration_ms DESC, r.id LIMIT 10`),
  browsers: sqlite.prepare('SELECT count(DISTINCT browser) FROM results WHERE run_id = ?').pluck(),
  errorHeads: sqlite.prepare(`SELECT id, substr(error_message, 1, ${HEAD_CHARS}) AS head, length(error_message) AS length FROM results WHERE run_id = ? AND error_message IS NOT NULL`),
  errorMessage: sqlite.prepare('SELECT error_message FROM results WHERE id = ?').pluck(),
}));

/**
 * Everything the run details screen shows of a run but its metadata: counts, the status
 * doughnut, the ten slowest, the tests with retries (bounded), error categories and the top five
 * error first lines, and the table's first page. `runId` is the run shown (its stats);
 * `resultsOf` the run whose results it shows (a duplicate shows its original's).
 * Costs one pass over the run's results: it runs in the analytics worker and is cached.
 */
export function runSummary(sqlite: SqliteDatabase, runId: number, resultsOf: number): RunSummary {
  const s = statementsFor(sqlite);
  const testsByStatus = { passed: 0, failed: 0, timedOut: 0, skipped: 0 };
  let duration = 0;
  for (const row of s.byStatus.all(resultsOf) as Array<{ status: keyof typeof testsByStatus; n: number; duration: number }>) {
    testsByStatus[row.status] = row.n;
    duration += row.duration;
  }
  const total = testsByStatus.passed + testsByStatus.failed + testsByStatus.timedOut + testsByStatus.skipped;
  const run = s.run.get(runId) as
    | { total_tests: number; passed_tests: number; failed_tests: number; skipped_tests: number; flaky_tests: number; duration_ms: number }
    | undefined;
  const firstPage = runResultsPage(sqlite, resultsOf, { page: 1, pageSize: RUN_RESULTS_PAGE_SIZE, status: 'all', sort: 'status' });
  return {
    testResults: firstPage.items,
    testResultsTotal: total,
    testsByStatus,
    errorPatterns: s.categories.all(resultsOf) as Array<{ category: string; count: number }>,
    flakyTests: (s.flaky.all(resultsOf) as RawResultRow[]).map(toResultRow),
    flakyTestsTotal: s.flakyCount.get(resultsOf) as number,
    slowestTests: (s.slowest.all(resultsOf) as RawResultRow[]).map(toResultRow),
    topErrors: topPatterns(errorPatterns(s, resultsOf)),
    browserCount: s.browsers.get(resultsOf) as number,
    stats: {
      total: run?.total_tests ?? 0,
      passed: run?.passed_tests ?? 0,
      failed: run?.failed_tests ?? 0,
      skipped: run?.skipped_tests ?? 0,
      flaky: run?.flaky_tests ?? 0,
      // SPEC.md section 9: passed / total × 100.
      pass_rate: run && run.total_tests > 0 ? (run.passed_tests / run.total_tests) * 100 : 0,
      duration_ms: run?.duration_ms || duration,
    },
  };
}

/** Each error's first line, from the head of the message; the whole one only when the head cannot tell. */
function errorPatterns(s: ReturnType<typeof statementsFor>, runId: number): string[] {
  const patterns: string[] = [];
  const undecided: number[] = [];
  // No other statement may run on the connection while this one iterates: the rare long first lines wait.
  for (const row of s.errorHeads.iterate(runId) as Iterable<{ id: number; head: string; length: number }>) {
    const pattern = errorPatternOfHead(row.head, row.length <= HEAD_CHARS);
    if (pattern === null) undecided.push(row.id);
    else patterns.push(pattern);
  }
  for (const id of undecided) patterns.push(errorPatternOf(s.errorMessage.get(id) as string));
  return patterns;
}
