import type { NormalisedTest } from '../../../core/report/normalised.js';
import type { SqliteDatabase } from '../engine/types.js';
import { perConnection } from '../engine/per-connection.js';
import { attachmentRowsOf, failingBlobs, writeAttachmentsSqlite, type AttachmentRow } from './attachment-rows.js';
import { RunFigures } from './run-figures.js';
import { ATTEMPT_ROW, ERROR_SAMPLE_ROW, PROJECT_ROW, pushAttempt, pushResult, RESULT_ROW } from './result-row.js';

/**
 * A result whose test never started gets the run's start time, which a report read in parts
 * gives only at its end (stats come last). Stored meanwhile as this value, below any time a
 * Date can hold, so no real start can be mistaken for it.
 */
export const NO_START = Number.MIN_SAFE_INTEGER;

/** Rows per INSERT: one statement per 64 results costs a fraction of 64 statements. */
const BATCH = 64;

/**
 * Writes the results and attempts of one run, in batches, in the caller's transaction. Test
 * identities, error samples and project names are looked up once per run.
 */
export class ResultWriter {
  private readonly testIds = new Map<string, number>();
  private readonly projects = new Set<string>();
  private readonly fingerprints = new Set<string>();
  /** What the run adds to the rollups, gathered on the way (addRunToRollups). */
  readonly figures = new RunFigures();
  private tests: NormalisedTest[] = [];
  private params: unknown[] = [];
  private lastTitlePath: readonly string[] | null = null;
  private lastFile = '';
  private lastTestId = 0;

  constructor(
    private readonly sqlite: SqliteDatabase,
    private readonly runId: number,
  ) {}

  add(test: NormalisedTest): void {
    const s = statementsFor(this.sqlite);
    // A spec's tests (one per project) come one after another with one titlePath array
    // (normalise.ts): the same test row, known without serialising and looking it up again.
    let testId = this.lastTestId;
    if (test.titlePath !== this.lastTitlePath || test.file !== this.lastFile) {
      testId = this.testIdOf(test, s);
      this.lastTitlePath = test.titlePath;
      this.lastFile = test.file;
      this.lastTestId = testId;
    }
    const error = test.error;
    if (error && !this.fingerprints.has(error.fingerprint)) {
      this.fingerprints.add(error.fingerprint);
      s.rememberError.run(error.fingerprint, error.category, error.summary, error.message);
    }
    if (!this.projects.has(test.browser)) {
      this.projects.add(test.browser);
      s.rememberProject.run(test.browser, test.projectName || test.browser);
    }
    const startedAt = test.startedAt ?? NO_START;
    this.figures.add(testId, test, startedAt);
    pushResult(this.params, this.runId, testId, test, startedAt);
    this.tests.push(test);
    if (this.tests.length === BATCH) this.flush();
  }

  private testIdOf(test: NormalisedTest, s: ReturnType<typeof statementsFor>): number {
    const titlePath = JSON.stringify(test.titlePath);
    const key = `${test.file}\u0000${titlePath}`;
    let testId = this.testIds.get(key);
    if (testId === undefined) {
      const existing = s.findTest.get(test.file, titlePath) as { id: number } | undefined;
      testId = existing ? existing.id : Number(s.insertTest.run(test.file, titlePath, test.title).lastInsertRowid);
      this.testIds.set(key, testId);
    }
    return testId;
  }

  /** Writes what is still buffered; call before reading the run's results back. */
  flush(): void {
    const count = this.tests.length;
    if (count === 0) return;
    const info = insertRows(this.sqlite, 'results', count).run(this.params);
    // Rows of one INSERT get consecutive ids (each max(id) + 1) while this transaction holds the lock.
    let resultId = Number(info.lastInsertRowid) - count + 1;
    let attempts: unknown[] = [];
    let rows = 0;
    const evidence: AttachmentRow[] = [];
    for (const test of this.tests) {
      if (test.attempts.some((a) => a.evidence)) evidence.push(...attachmentRowsOf(resultId, test));
      for (let i = 0; i < test.attempts.length; i++) {
        pushAttempt(attempts, resultId, i, test.attempts[i]!);
        if (++rows === BATCH) {
          insertRows(this.sqlite, 'attempts', rows).run(attempts);
          attempts = [];
          rows = 0;
        }
      }
      resultId++;
    }
    if (rows > 0) insertRows(this.sqlite, 'attempts', rows).run(attempts);
    if (evidence.length > 0) {
      const failing = new Set<string>();
      failingBlobs(this.tests, failing);
      writeAttachmentsSqlite(this.sqlite, evidence, failing);
    }
    this.tests = [];
    this.params = [];
  }
}

const ROWS = { results: RESULT_ROW, attempts: ATTEMPT_ROW };


const statementsFor = perConnection(prepare);

function prepare(sqlite: SqliteDatabase) {
  return {
    findTest: sqlite.prepare(`SELECT id FROM tests WHERE file = ? AND title_path = ?`),
    insertTest: sqlite.prepare(`INSERT INTO tests (file, title_path, title) VALUES (?, ?, ?)`),
    rememberError: sqlite.prepare(`INSERT INTO error_samples (${ERROR_SAMPLE_ROW.columns}) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`),
    rememberProject: sqlite.prepare(`INSERT INTO browser_projects (${PROJECT_ROW.columns}) VALUES (?, ?) ON CONFLICT DO NOTHING`),
    rows: new Map<string, ReturnType<SqliteDatabase['prepare']>>(),
  };
}

/** INSERT of `count` rows, prepared once per table and size (a full batch, or a run's last rows). */
function insertRows(sqlite: SqliteDatabase, table: keyof typeof ROWS, count: number) {
  const { rows } = statementsFor(sqlite);
  const key = `${table}:${count}`;
  let statement = rows.get(key);
  if (!statement) {
    const row = `(${new Array<string>(ROWS[table].types.length).fill('?').join(', ')})`;
    statement = sqlite.prepare(`INSERT INTO ${table} (${ROWS[table].columns}) VALUES ${new Array<string>(count).fill(row).join(', ')}`);
    rows.set(key, statement);
  }
  return statement;
}
