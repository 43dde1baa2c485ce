/**
 * write-run.ts and write-results.ts on PostgreSQL: the same rows, written in bulk (unnest
 * batches, never a statement per result) in one transaction of the store's pool, so a report is
 * stored whole or not at all and several writers (servers, CLI imports) store reports at once.
 */
import type { NormalisedTest } from '../../../core/report/normalised.js';
import { POSTGRES_LOCK_NEW_TESTS, POSTGRES_LOCK_REPORT, postgresText } from '../engine/dialect.js';
import type { PostgresStore } from '../engine/types.js';
import { addRunToRollupsPostgres } from './rollups-postgres.js';
import { RunFigures } from './run-figures.js';
import type { Sql } from '../engine/sql.js';
import { UNNEST_BATCH, UnnestWriter } from '../engine/unnest-writer.js';
import { FINISH_RUN_SQL, finishedRunRow, pendingRunRow, type RunEnding, type RunHeader, type StoredRun } from './write-run.js';
import { ATTEMPT_ROW, ERROR_SAMPLE_ROW, FIND_ORIGINAL, FIX_STARTS, INSERT_PENDING_RUN, PROJECT_ROW, pushAttempt, pushResult, RESULT_ROW } from './result-row.js';
import { attachmentRowsOf, failingBlobs, writeAttachmentsPostgres, type AttachmentRow } from './attachment-rows.js';
import { NO_START } from './write-results.js';
import { writeOwnersPostgres } from './owners.js';

/**
 * A duplicate's run row, renumbered after the original: its id came at the start of its
 * transaction, and an identical upload that began later may have committed first and become the
 * original. Its results are rolled back already, so nothing refers to the old id. Its upload
 * time is not before the original's either: of a set of identical uploads, the original is the
 * first committed, with the lowest id and the earliest time.
 */
const RENUMBER_DUPLICATE = `UPDATE runs SET id = nextval(pg_get_serial_sequence('runs', 'id')),
    uploaded_at = greatest(uploaded_at, (SELECT o.uploaded_at FROM runs o WHERE o.id = @original))
  WHERE id = @id RETURNING id, uploaded_at`;

/**
 * write-run.ts writeRunInParts on PostgreSQL: the run row, then the results as `read` gives the
 * tests (awaiting each batch), then under the report's lock the duplicate check (a duplicate's
 * results are rolled back to a savepoint, as on SQLite), then under the rollup lock the error
 * samples, project names and rollups. Anything thrown rolls the whole transaction back.
 */
export async function writeRunPostgres(
  store: PostgresStore,
  header: RunHeader,
  read: (addTest: (test: NormalisedTest) => Promise<void> | undefined) => Promise<RunEnding>,
): Promise<StoredRun> {
  const now = header.now ?? Date.now();
  return store.transaction(async (sql) => {
    let runId = Number(await sql.value(INSERT_PENDING_RUN, pendingRunRow(header, now, postgresText)));
    await sql.run('SAVEPOINT run_results');
    const writer = new PostgresResultWriter(sql, runId);
    const ending = await read((test) => writer.add(test));
    await writer.flush();
    await sql.value(POSTGRES_LOCK_REPORT, { hash: ending.contentHash });
    const original = await sql.get<{ id: number }>(FIND_ORIGINAL, { hash: ending.contentHash });
    const duplicate = original !== undefined;
    const { run } = ending;
    const runStart = run.startedAt ?? header.fallbackStartedAt;
    if (duplicate) await sql.run('ROLLBACK TO SAVEPOINT run_results');
    else await sql.run(FIX_STARTS, { start: runStart, run: runId, none: NO_START });
    await sql.run('RELEASE SAVEPOINT run_results');
    if (duplicate) runId = Number((await sql.get<{ id: number }>(RENUMBER_DUPLICATE, { id: runId, original: original.id }))!.id);
    const row = finishedRunRow(runId, header, ending, original?.id ?? null, now, postgresText);
    const { status } = row;
    const outage = row.outage === 1;
    await sql.run(FINISH_RUN_SQL, row);
    if (ending.owners) await writeOwnersPostgres(sql, ending.owners);
    if (!duplicate) {
      await addRunToRollupsPostgres(sql, runId, (sink) => writer.figures.emit(NO_START, runStart, outage, sink), () => writer.writeNames());
    }
    return { runId, duplicate, duplicateOf: original?.id ?? null, status };
  });
}

const NEW_TESTS = `INSERT INTO tests (file, title_path, title) SELECT * FROM unnest(CAST(@c0 AS text[]), CAST(@c1 AS text[]), CAST(@c2 AS text[])) ORDER BY 1, 2 ON CONFLICT DO NOTHING`;
const FIND_TESTS = `SELECT t.id, t.file, t.title_path FROM tests t
  JOIN unnest(CAST(@files AS text[]), CAST(@paths AS text[])) AS k(file, title_path) ON t.file = k.file AND t.title_path = k.title_path`;
const NEW_IDS = `SELECT nextval(pg_get_serial_sequence('results', 'id')) AS id FROM generate_series(1, CAST(@n AS BIGINT))`;

/** write-results.ts ResultWriter on PostgreSQL: the same rows and figures, UNNEST_BATCH results per round of statements. */
class PostgresResultWriter {
  private readonly testIds = new Map<string, number>();
  private readonly errors = new Map<string, [string, string, string, string]>();
  private readonly projects = new Map<string, [string, string]>();
  readonly figures = new RunFigures();
  private pending: NormalisedTest[] = [];
  /** Whether this transaction holds POSTGRES_LOCK_NEW_TESTS. */
  private creatingTests = false;
  private readonly results: UnnestWriter;
  private readonly attempts: UnnestWriter;

  constructor(
    private readonly sql: Sql,
    private readonly runId: number,
  ) {
    // The ids come first, from the sequence (NEW_IDS): attempts and evidence refer to them.
    this.results = new UnnestWriter(sql, 'results', `id, ${RESULT_ROW.columns}`, ['bigint', ...RESULT_ROW.types]);
    this.attempts = new UnnestWriter(sql, 'attempts', ATTEMPT_ROW.columns, ATTEMPT_ROW.types);
  }

  add(test: NormalisedTest): Promise<void> | undefined {
    this.pending.push(test);
    const error = test.error;
    if (error && !this.errors.has(error.fingerprint)) this.errors.set(error.fingerprint, [error.fingerprint, error.category, error.summary, error.message]);
    if (!this.projects.has(test.browser)) this.projects.set(test.browser, [test.browser, test.projectName || test.browser]);
    return this.pending.length >= UNNEST_BATCH ? this.flush() : undefined;
  }

  async flush(): Promise<void> {
    const tests = this.pending;
    if (tests.length === 0) return;
    this.pending = [];
    await this.resolveTests(tests);
    const ids = (await this.sql.all<{ id: number }>(NEW_IDS, { n: tests.length })).map((row) => Number(row.id));
    const results: unknown[][] = [];
    const attempts: unknown[][] = [];
    const evidence: AttachmentRow[] = [];
    tests.forEach((test, i) => {
      const resultId = ids[i]!;
      const testId = this.testIds.get(testKey(test))!;
      const startedAt = test.startedAt ?? NO_START;
      this.figures.add(testId, test, startedAt);
      const row: unknown[] = [resultId];
      pushResult(row, this.runId, testId, test, startedAt);
      results.push(row);
      if (test.attempts.some((a) => a.evidence)) evidence.push(...attachmentRowsOf(resultId, test));
      test.attempts.forEach((a, retry) => {
        const row: unknown[] = [];
        pushAttempt(row, resultId, retry, a);
        attempts.push(row);
      });
    });
    await this.results.writeAll(results);
    await this.attempts.writeAll(attempts);
    if (evidence.length > 0) {
      const failing = new Set<string>();
      failingBlobs(tests, failing);
      await writeAttachmentsPostgres(this.sql, evidence, failing);
    }
  }

  /**
   * Test identities of the batch not seen yet in this run: read, and those that do not exist
   * created (after POSTGRES_LOCK_NEW_TESTS, in key order) and read.
   */
  private async resolveTests(tests: readonly NormalisedTest[]): Promise<void> {
    const unknown = new Map<string, NormalisedTest>();
    for (const test of tests) {
      const key = testKey(test);
      if (!this.testIds.has(key) && !unknown.has(key)) unknown.set(key, test);
    }
    if (unknown.size === 0) return;
    await this.findTests(unknown);
    if (unknown.size === 0) return;
    if (!this.creatingTests) {
      await this.sql.value(POSTGRES_LOCK_NEW_TESTS);
      this.creatingTests = true;
    }
    const rows = [...unknown.values()].map((test) => [postgresText(test.file), postgresText(JSON.stringify(test.titlePath)), postgresText(test.title)]);
    await this.sql.run(NEW_TESTS, { c0: rows.map((r) => r[0]), c1: rows.map((r) => r[1]), c2: rows.map((r) => r[2]) });
    await this.findTests(unknown);
  }

  /** Reads the ids of the `unknown` tests that exist, and takes them out of it. */
  private async findTests(unknown: Map<string, NormalisedTest>): Promise<void> {
    const files: string[] = [];
    const paths: string[] = [];
    for (const test of unknown.values()) {
      files.push(postgresText(test.file));
      paths.push(postgresText(JSON.stringify(test.titlePath)));
    }
    for (const row of await this.sql.all<{ id: number; file: string; title_path: string }>(FIND_TESTS, { files, paths })) {
      const key = `${row.file}\u0000${row.title_path}`;
      this.testIds.set(key, Number(row.id));
      unknown.delete(key);
    }
  }

  /** Error samples and project names, one statement each in key order: after the rollup lock, so concurrent writers never wait on each other's. */
  async writeNames(): Promise<void> {
    const byKey = <T extends unknown[]>(rows: Map<string, T>) => [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
    await new UnnestWriter(this.sql, 'error_samples', ERROR_SAMPLE_ROW.columns, ERROR_SAMPLE_ROW.types, 'ON CONFLICT DO NOTHING').writeAll(byKey(this.errors));
    await new UnnestWriter(this.sql, 'browser_projects', PROJECT_ROW.columns, PROJECT_ROW.types, 'ON CONFLICT DO NOTHING').writeAll(byKey(this.projects));
  }
}

/** The key a test identity is looked up by, as stored (text made fit for PostgreSQL). */
function testKey(test: NormalisedTest): string {
  return `${postgresText(test.file)}\u0000${postgresText(JSON.stringify(test.titlePath))}`;
}
