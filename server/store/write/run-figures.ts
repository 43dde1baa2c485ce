import type { NormalisedTest } from '../../../core/report/normalised.js';
import type { SqliteDatabase } from '../engine/types.js';

// rollups.ts's day length; not imported from there, since rollups.ts imports this file.
const DAY_MS = 86_400_000;

/** What the rollups need of one stored result, kept while the run is written. */
interface ResultFigures {
  startedAt: number;
  status: string;
  passedOnRetry: boolean;
  durationMs: number;
  /** Each attempt's outcome in retry order: 1 passed as expected, 0 not; skipped and interrupted left out. */
  outcomes: string;
  fingerprint: string | null;
}

interface ResultGroup {
  testId: number;
  browser: string;
  results: ResultFigures[];
  /** The same test's group for another browser. */
  next: ResultGroup | undefined;
}

/** One daily_test_stats row (rollups.ts STATS_COLUMNS order). */
export type DayRow = [
  testId: number, browser: string, day: number, runs: number, passed: number, failed: number, skipped: number, passedOnRetry: number,
  durationSum: number, durationMax: number, timedRuns: number, scoredRuns: number, scoredPassed: number, scoredFailed: number,
  attempts: number, changes: number, firstOutcome: number | null, lastOutcome: number | null, lastRunAt: number,
];

/** One test_totals row (test-totals.ts COLUMNS order). */
export type TotalRow = [
  testId: number, browser: string, runs: number, passed: number, failed: number, skipped: number, passedOnRetry: number,
  scoredPassed: number, scoredFailed: number, attempts: number, changes: number, durationSum: number, durationMax: number,
  timedRuns: number, firstOutcome: number | null, lastOutcome: number | null, lastRunAt: number, lastFailedAt: number | null,
];

/** One daily_error_stats row: test, browser, day, fingerprint, occurrences. */
export type ErrorRow = [testId: number, browser: string, day: number, fingerprint: string, occurrences: number];

/** Takes a run's rows as they are computed (each is new: it may be kept). */
export interface RowSink {
  day(row: DayRow): void;
  total(row: TotalRow): void;
  error(row: ErrorRow): void;
}

/** A run's rows, given to a sink one by one: they are written in batches, never all held at once. */
export type RunRows = (sink: RowSink) => void;

const isFailed = (status: string) => status === 'failed' || status === 'timedOut';

/**
 * The figures a run adds to daily_test_stats, test_totals and daily_error_stats, computed in
 * JavaScript as its results are written: the same rules as the SQL aggregations over the stored
 * rows (rollups.ts `aggregate`, test-totals.ts `rebuildSelect`), without reading the run back.
 * Holds a few numbers per result of one run (memory follows the run, like its canonical text).
 */
export class RunFigures {
  /** Each test and browser's results, in the order first stored (the order rows are emitted in). */
  private readonly groups: ResultGroup[] = [];
  /** A test's groups, one per browser, chained: found by the test's id, a number, not a string key. */
  private readonly byTest = new Map<number, ResultGroup>();

  /** A result as stored; `startedAt` is the stored value (NO_START until the run's start is known). */
  add(testId: number, test: NormalisedTest, startedAt: number): void {
    let outcomes = '';
    for (const a of test.attempts) {
      if (a.status === 'skipped' || a.status === 'interrupted') continue;
      outcomes += a.status === test.expectedStatus ? '1' : '0';
    }
    const first = this.byTest.get(testId);
    let group = first;
    while (group !== undefined && group.browser !== test.browser) group = group.next;
    if (group === undefined) {
      group = { testId, browser: test.browser, results: [], next: first };
      this.byTest.set(testId, group);
      this.groups.push(group);
    }
    group.results.push({
      startedAt,
      status: test.status,
      passedOnRetry: test.passedOnRetry,
      durationMs: test.durationMs,
      outcomes,
      fingerprint: test.error?.fingerprint ?? null,
    });
  }

  /**
   * The rows, once the run is written: `noStart` is the placeholder start, `runStart` what it
   * became (write-run.ts fixStarts), `outage` the run's flag (an outage run is not scored).
   */
  emit(noStart: number, runStart: number, outage: boolean, sink: RowSink): void {
    const scored = !outage;
    for (const { testId, browser, results } of this.groups) {
      for (const r of results) if (r.startedAt === noStart) r.startedAt = runStart;
      // A stable sort: results that started at the same moment keep the order they were stored in (as ids do in SQL).
      if (results.length > 1) results.sort((a, b) => a.startedAt - b.startedAt);
      const total: TotalRow = [testId, browser, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, null, null, 0, null];
      let row: DayRow | null = null;
      let dayErrors: Map<string, number> | null = null;
      let totalSeen = false;
      for (const r of results) {
        const day = dayOf(r.startedAt);
        if (row === null || row[2] !== day) {
          if (row !== null) sink.day(row);
          if (dayErrors !== null) for (const [fingerprint, n] of dayErrors) sink.error([testId, browser, row![2], fingerprint, n]);
          row = [testId, browser, day, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, null, null, r.startedAt];
          dayErrors = null;
        }
        const failed = isFailed(r.status);
        row[3]++;
        if (r.status === 'passed') row[4]++;
        if (failed) row[5]++;
        if (r.status === 'skipped') row[6]++;
        else {
          row[8] += r.durationMs;
          if (row[10] === 0 || r.durationMs > row[9]) row[9] = r.durationMs;
          row[10]++;
        }
        if (r.startedAt > row[18]) row[18] = r.startedAt;
        if (failed && r.fingerprint !== null) {
          dayErrors ??= new Map();
          dayErrors.set(r.fingerprint, (dayErrors.get(r.fingerprint) ?? 0) + 1);
        }
        // test_totals: the same sums over all the run's days.
        total[2]++;
        if (r.status === 'passed') total[3]++;
        if (failed) {
          total[4]++;
          if (total[17] === null || r.startedAt > total[17]) total[17] = r.startedAt;
        }
        if (r.status === 'skipped') total[5]++;
        else {
          total[11] += r.durationMs;
          if (total[13] === 0 || r.durationMs > total[12]) total[12] = r.durationMs;
          total[13]++;
        }
        if (!totalSeen || r.startedAt > total[16]) total[16] = r.startedAt;
        totalSeen = true;
        if (!scored) continue;
        row[11]++;
        if (r.passedOnRetry) {
          row[7]++;
          total[6]++;
        }
        if (r.status === 'passed') {
          row[12]++;
          total[7]++;
        }
        if (failed) {
          row[13]++;
          total[8]++;
        }
        for (let i = 0; i < r.outcomes.length; i++) {
          const outcome = r.outcomes.charCodeAt(i) - 48;
          if (row[17] !== null && row[17] !== outcome) row[15]++;
          if (row[16] === null) row[16] = outcome;
          row[17] = outcome;
          row[14]++;
          if (total[15] !== null && total[15] !== outcome) total[10]++;
          if (total[14] === null) total[14] = outcome;
          total[15] = outcome;
          total[9]++;
        }
      }
      if (row !== null) sink.day(row);
      if (dayErrors !== null) for (const [fingerprint, n] of dayErrors) sink.error([testId, browser, row![2], fingerprint, n]);
      sink.total(total);
    }
  }
}

/** SQLite's `started_at / 86400000`: integer division of a stored integer. */
function dayOf(startedAt: number): number {
  return Number.isInteger(startedAt) ? Math.trunc(startedAt / DAY_MS) : startedAt / DAY_MS;
}

const ROWS_PER_STATEMENT = 128;

/**
 * Writes rows with multi-row INSERTs of ROWS_PER_STATEMENT rows (and one for the rest), each
 * statement prepared once per connection and size (`cache` is the connection's): `head` is
 * `INSERT INTO t (cols)`, `tail` what follows VALUES (an ON CONFLICT clause).
 */
export class ValuesWriter {
  private params: unknown[] = [];
  private rows = 0;

  constructor(
    private readonly sqlite: SqliteDatabase,
    private readonly cache: Map<number, ReturnType<SqliteDatabase['prepare']>>,
    private readonly head: string,
    private readonly tail: string,
    private readonly columns: number,
  ) {}

  add(row: readonly unknown[]): void {
    for (let i = 0; i < row.length; i++) this.params.push(row[i]);
    if (++this.rows === ROWS_PER_STATEMENT) this.finish();
  }

  /** Writes what is still buffered. */
  finish(): void {
    if (this.rows === 0) return;
    let statement = this.cache.get(this.rows);
    if (!statement) {
      const row = `(${new Array<string>(this.columns).fill('?').join(', ')})`;
      statement = this.sqlite.prepare(`${this.head} VALUES ${new Array<string>(this.rows).fill(row).join(', ')} ${this.tail}`);
      this.cache.set(this.rows, statement);
    }
    statement.run(this.params);
    this.params = [];
    this.rows = 0;
  }
}
