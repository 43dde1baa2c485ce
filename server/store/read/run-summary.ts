import { errorPatternOf, errorPatternOfHead, topPatterns } from '../../../core/errors/first-line.js';
import { RUN_FLAKY_SHOWN, RUN_RESULTS_PAGE_SIZE, type UploadDetailResponse } from '../../../core/api/uploads.js';
import { dialectFor, type DialectName } from '../engine/dialect.js';
import type { AnyStore } from '../engine/types.js';
import { RESULT_COLUMNS, runResultsPage, toResultRows, type RawResultRow } from './run-results.js';

export type RunSummary = Omit<UploadDetailResponse, 'upload'>;

/** Error first lines are read from this many characters; a line that runs past them is read whole. */
const HEAD_CHARS = 4096;

/** Error heads read per query: a run with tens of thousands of failures is not held in memory at once. */
const HEADS_PER_QUERY = 1000;

// Made once per engine: SQLite's connection keeps prepared statements by their text.
function textsFor(dialect: DialectName) {
  const t = dialectFor(dialect);
  const r = dialectFor(dialect);
  return {
    run: 'SELECT total_tests, passed_tests, failed_tests, skipped_tests, flaky_tests, duration_ms FROM runs WHERE id = @runId',
    byStatus: `SELECT status, count(*) AS n, ${t.total('duration_ms')} AS duration FROM results WHERE run_id = @runId GROUP BY status`,
    categories: `SELECT error_category AS category, count(*) AS count FROM results
     WHERE run_id = @runId AND status IN ('failed', 'timedOut') AND error_category IS NOT NULL GROUP BY error_category ORDER BY count DESC, ${r.bytes('error_category')}`,
    // Flaky: passed on a retry (the run's flaky count). A result that failed every retry is a failure, not flaky.
    flaky: `SELECT ${RESULT_COLUMNS} FROM results r JOIN tests t ON t.id = r.test_id WHERE r.run_id = @runId AND r.passed_on_retry != 0 ORDER BY r.id LIMIT ${RUN_FLAKY_SHOWN}`,
    flakyCount: 'SELECT count(*) FROM results WHERE run_id = @runId AND passed_on_retry != 0',
    failedAfterRetries: 'SELECT count(*) FROM results WHERE run_id = @runId AND retries > 0 AND passed_on_retry = 0 AND status IN (\'failed\', \'timedOut\')',
    slowest: `SELECT ${RESULT_COLUMNS} FROM results r JOIN tests t ON t.id = r.test_id WHERE r.run_id = @runId ORDER BY r.duration_ms DESC, r.id LIMIT 10`,
    browsers: 'SELECT count(DISTINCT browser) FROM results WHERE run_id = @runId',
    errorHeads: `SELECT id, substr(error_message, 1, ${HEAD_CHARS}) AS head, length(error_message) AS length FROM results
      WHERE run_id = @runId AND error_message IS NOT NULL AND id > @after ORDER BY id LIMIT ${HEADS_PER_QUERY}`,
    errorMessage: 'SELECT error_message FROM results WHERE id = @id',
  };
}
const TEXTS = { sqlite: textsFor('sqlite'), postgres: textsFor('postgres') };

/**
 * Everything the run details screen shows of a run but its metadata: counts, the status
 * doughnut, the ten slowest, the tests that passed on a retry (bounded) and a count of those that failed every retry, error categories and the top five
 * error first lines, and the table's first page. `runId` is the run shown (its stats);
 * `resultsOf` the run whose results it shows (a duplicate shows its original's).
 * Costs one pass over the run's results: it runs in the analytics worker and is cached.
 */
export async function runSummary(store: AnyStore, runId: number, resultsOf: number): Promise<RunSummary> {
  const s = TEXTS[store.dialect];
  const sql = store.sql;
  const of = { runId: resultsOf };
  const testsByStatus = { passed: 0, failed: 0, timedOut: 0, skipped: 0 };
  let duration = 0;
  for (const row of await sql.all<{ status: keyof typeof testsByStatus; n: number; duration: number }>(s.byStatus, of)) {
    testsByStatus[row.status] = row.n;
    duration += row.duration;
  }
  const total = testsByStatus.passed + testsByStatus.failed + testsByStatus.timedOut + testsByStatus.skipped;
  const run = await sql.get<{ total_tests: number; passed_tests: number; failed_tests: number; skipped_tests: number; flaky_tests: number; duration_ms: number }>(s.run, {
    runId,
  });
  const firstPage = await runResultsPage(store, resultsOf, { page: 1, pageSize: RUN_RESULTS_PAGE_SIZE, status: 'all', sort: 'status' });
  return {
    testResults: firstPage.items,
    testResultsTotal: total,
    testsByStatus,
    errorPatterns: await sql.all<{ category: string; count: number }>(s.categories, of),
    flakyTests: await toResultRows(store, await sql.all<RawResultRow>(s.flaky, of)),
    flakyTestsTotal: (await sql.value<number>(s.flakyCount, of))!,
    failedAfterRetriesTotal: (await sql.value<number>(s.failedAfterRetries, of))!,
    slowestTests: await toResultRows(store, await sql.all<RawResultRow>(s.slowest, of)),
    topErrors: topPatterns(await errorPatterns(store, resultsOf)),
    browserCount: (await sql.value<number>(s.browsers, of))!,
    stats: {
      total: run?.total_tests ?? 0,
      passed: run?.passed_tests ?? 0,
      failed: run?.failed_tests ?? 0,
      skipped: run?.skipped_tests ?? 0,
      flaky: run?.flaky_tests ?? 0,
      // docs/screens.md#pass-rate: passed / total × 100.
      pass_rate: run && run.total_tests > 0 ? (run.passed_tests / run.total_tests) * 100 : 0,
      duration_ms: run?.duration_ms || duration,
    },
  };
}

/** Each error's first line, from the head of the message; the whole one only when the head cannot tell. */
async function errorPatterns(store: AnyStore, runId: number): Promise<string[]> {
  const s = TEXTS[store.dialect];
  const patterns: string[] = [];
  const undecided: number[] = [];
  for (let after = 0; ; ) {
    const rows = await store.sql.all<{ id: number; head: string; length: number }>(s.errorHeads, { runId, after });
    for (const row of rows) {
      const pattern = errorPatternOfHead(row.head, row.length <= HEAD_CHARS);
      if (pattern === null) undecided.push(row.id);
      else patterns.push(pattern);
    }
    if (rows.length < HEADS_PER_QUERY) break;
    after = rows[rows.length - 1]!.id;
  }
  // The rare long first lines, read whole one at a time.
  for (const id of undecided) patterns.push(errorPatternOf((await store.sql.value<string>(s.errorMessage, { id }))!));
  return patterns;
}
