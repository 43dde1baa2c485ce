import { isOutage } from '../../../core/analytics/outage.js';
import type { RunSummary } from '../../../core/report/normalise.js';
import type { NormalisedRun, NormalisedTest } from '../../../core/report/normalised.js';
import type { SqliteDatabase, Store } from '../engine/types.js';
import { addRunToRollups } from './rollups.js';
import { NO_START, ResultWriter } from './write-results.js';
import type { ReviewStatus } from '../engine/schema.js';
import { OwnersCollector, type FileOwners, type ReportOwners } from '../../../core/owners/test-owners.js';
import { writeOwnersSqlite } from './owners.js';
import { perConnection } from '../engine/per-connection.js';
import { FIND_ORIGINAL, FIX_STARTS, INSERT_PENDING_RUN } from './result-row.js';

export interface RunToStore {
  run: NormalisedRun;
  fileName: string;
  fileSize: number | null;
  contentHash: string;
  /** When the report carries no start time (very old reports), e.g. the file's mtime. */
  fallbackStartedAt: number;
  project: string | null;
  gitBranch: string | null;
  gitCommit: string | null;
  buildId?: string | null;
  buildUrl?: string | null;
  approve: boolean;
  uploadedBy: number | null;
  /** Who or what stored it when no signed-in user did: 'token NAME', 'reporter on HOST', 'import on HOST'. */
  uploadedVia?: string | null;
  now?: number;
  /** Called every few thousand tests of a big report, for a progress display. */
  onProgress?: (stored: number, total: number) => void;
  /** The CODEOWNERS owners of the report's test files; absent: none was read. */
  fileOwners?: FileOwners | null;
}

/** What is known of a run before its report is read. */
export interface RunHeader {
  fileName: string;
  fileSize: number | null;
  fallbackStartedAt: number;
  approve: boolean;
  uploadedBy: number | null;
  uploadedVia?: string | null;
  now?: number;
}

/** What is known once the whole report has been read. */
export interface RunEnding {
  run: RunSummary;
  contentHash: string;
  project: string | null;
  gitBranch: string | null;
  gitCommit: string | null;
  buildId?: string | null;
  buildUrl?: string | null;
  /** Who owns the report's tests (stored with the run); absent: left as they were. */
  owners?: ReportOwners;
}

const PROGRESS_EVERY = 2000;

export interface StoredRun {
  runId: number;
  duplicate: boolean;
  duplicateOf: number | null;
  status: ReviewStatus;
}

/** Stores one normalised report held whole (see writeRunInParts). */
export function writeRun(store: Store, input: RunToStore): StoredRun {
  const { run, onProgress } = input;
  return writeRunInParts(store, input, (addTest) => {
    const total = run.tests.length;
    const owners = new OwnersCollector(input.fileOwners ?? null);
    for (let i = 0; i < total; i++) {
      addTest(run.tests[i]!);
      owners.add(run.tests[i]!);
      if (onProgress && (i + 1) % PROGRESS_EVERY === 0) onProgress(i + 1, total);
    }
    return {
      run, contentHash: input.contentHash, project: input.project, gitBranch: input.gitBranch, gitCommit: input.gitCommit,
      buildId: input.buildId ?? null, buildUrl: input.buildUrl ?? null, owners: owners.result(),
    };
  });
}

/** Thrown inside the savepoint to undo a duplicate's results. */
const DUPLICATE = Symbol('duplicate');

/**
 * Stores one report in one transaction while `read` produces its tests (a report read in parts
 * is never held whole): a report is stored whole or not at all, and anything `read` throws
 * leaves nothing behind. Same content as a run that is not rejected is a duplicate: kept as a
 * pending row (so a reviewer sees it and rejects it) with no results of its own, so it never
 * counts twice. The content's hash is known only at the end, so a duplicate's results are
 * written and then rolled back to a savepoint: the cost of a duplicate, not of every import.
 */
export function writeRunInParts(store: Store, header: RunHeader, read: (addTest: (test: NormalisedTest) => void) => RunEnding): StoredRun {
  const statements = preparedFor(store.sqlite);
  const now = header.now ?? Date.now();
  const insert = store.sqlite.transaction((): StoredRun => {
    const runId = Number(statements.insertRun.get(pendingRunRow(header, now)));
    let ending: RunEnding | undefined;
    let original: { id: number } | undefined;
    const writer = new ResultWriter(store.sqlite, runId);
    const results = store.sqlite.transaction(() => {
      ending = read((test) => writer.add(test));
      original = checkOriginal(statements, runId, header, writer, ending);
      if (original) throw DUPLICATE;
    });
    try {
      results();
    } catch (error) {
      if (error !== DUPLICATE) throw error;
    }
    return finishRun(store.sqlite, statements, runId, header, writer, ending!, original, now);
  });
  // IMMEDIATE takes the write lock first, so two imports of the same file cannot both see
  // "no original" and store two originals.
  return insert.immediate();
}

/**
 * writeRunInParts for a `read` that waits between tests (the CLI's import, which stores each
 * test's evidence before the test): the same rows in the same one transaction, begun IMMEDIATE
 * and held on this connection while `read` awaits. `beforeCommit` runs last inside it, after
 * the duplicate check (rows a duplicate keeps too). Anything thrown rolls it all back.
 */
export async function writeRunInPartsAsync(
  store: Store,
  header: RunHeader,
  read: (addTest: (test: NormalisedTest) => void) => Promise<RunEnding>,
  beforeCommit?: () => Promise<void>,
): Promise<StoredRun> {
  const { sqlite } = store;
  const statements = preparedFor(sqlite);
  const now = header.now ?? Date.now();
  sqlite.exec('BEGIN IMMEDIATE');
  try {
    const runId = Number(statements.insertRun.get(pendingRunRow(header, now)));
    sqlite.exec('SAVEPOINT run_results');
    const writer = new ResultWriter(sqlite, runId);
    const ending = await read((test) => writer.add(test));
    const original = checkOriginal(statements, runId, header, writer, ending);
    if (original) sqlite.exec('ROLLBACK TO run_results');
    sqlite.exec('RELEASE run_results');
    const stored = finishRun(sqlite, statements, runId, header, writer, ending, original, now);
    await beforeCommit?.();
    sqlite.exec('COMMIT');
    return stored;
  } catch (error) {
    if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
    throw error;
  }
}

/**
 * Once the report is read: writes what is buffered, and finds the original of a duplicate;
 * if there is none, tests that never started take the run's start, known only now (NO_START).
 */
function checkOriginal(statements: ReturnType<typeof prepare>, runId: number, header: RunHeader, writer: ResultWriter, ending: RunEnding): { id: number } | undefined {
  writer.flush();
  const original = statements.findOriginal.get({ hash: ending.contentHash }) as { id: number } | undefined;
  if (!original) statements.fixStarts.run({ start: runStartOf(header, ending), run: runId, none: NO_START });
  return original;
}

const runStartOf = (header: RunHeader, ending: RunEnding) => ending.run.startedAt ?? header.fallbackStartedAt;

/** The run's own row, its owners, and (not for a duplicate) its rollups. */
function finishRun(sqlite: SqliteDatabase, statements: ReturnType<typeof prepare>, runId: number, header: RunHeader, writer: ResultWriter, ending: RunEnding, original: { id: number } | undefined, now: number): StoredRun {
  const duplicate = original !== undefined;
  const row = finishedRunRow(runId, header, ending, original?.id ?? null, now);
  const { status } = row;
  const outage = row.outage === 1;
  statements.finishRun.run(row);
  if (ending.owners) writeOwnersSqlite(sqlite, ending.owners);
  if (!duplicate) addRunToRollups(sqlite, runId, (sink) => writer.figures.emit(NO_START, runStartOf(header, ending), outage, sink));
  return { runId, duplicate, duplicateOf: original?.id ?? null, status };
}

const preparedFor = perConnection(prepare);
// Kysely compiles a query per call; the bulk path of an import uses prepared statements.
function prepare(sqlite: SqliteDatabase) {
  return {
    findOriginal: sqlite.prepare(FIND_ORIGINAL),
    insertRun: sqlite.prepare(INSERT_PENDING_RUN).pluck(),
    finishRun: sqlite.prepare(FINISH_RUN_SQL),
    fixStarts: sqlite.prepare(FIX_STARTS),
  };
}

/**
 * The parameters of INSERT_PENDING_RUN, on either engine; `text` makes report text storable
 * (PostgreSQL's postgresText; SQLite stores it as it is).
 */
export function pendingRunRow(header: RunHeader, now: number, text: (value: string) => string = (value) => value) {
  return { file_name: text(header.fileName), file_size: header.fileSize, uploaded_at: now, uploaded_by: header.uploadedBy, uploaded_via: header.uploadedVia == null ? null : text(header.uploadedVia) };
}

/** Sets finishedRunRow's columns (both engines). */
export const FINISH_RUN_SQL = `UPDATE runs SET
    status = @status, is_duplicate = @is_duplicate, duplicate_of = @duplicate_of, content_hash = @content_hash,
    project = @project, browser = @browser, git_branch = @git_branch, git_commit = @git_commit, metadata_json = @metadata_json,
    playwright_version = @playwright_version, shard_current = @shard_current, shard_total = @shard_total,
    started_at = @started_at, duration_ms = @duration_ms, reviewed_at = @reviewed_at, total_tests = @total_tests,
    passed_tests = @passed_tests, failed_tests = @failed_tests, skipped_tests = @skipped_tests, flaky_tests = @flaky_tests,
    load_failed = @load_failed, outage = @outage, errors_json = @errors_json, build_id = @build_id, build_url = @build_url
  WHERE id = @id`;

/**
 * The columns a run gets once its report is read, on either engine (write-run-postgres.ts);
 * `text` makes report text storable (PostgreSQL's postgresText; SQLite stores it as it is).
 */
export function finishedRunRow(id: number, header: RunHeader, ending: RunEnding, duplicateOf: number | null, now: number, text: (value: string) => string = (value) => value) {
  const { run } = ending;
  const duplicate = duplicateOf !== null;
  const maybe = (value: string | null | undefined) => (value == null ? null : text(value));
  const outage = isOutage(run);
  return {
    id,
    status: (header.approve && !duplicate ? 'approved' : 'pending') as ReviewStatus,
    is_duplicate: duplicate ? 1 : 0,
    duplicate_of: duplicateOf,
    content_hash: ending.contentHash,
    project: maybe(ending.project),
    browser: text(run.detected.browser),
    git_branch: maybe(ending.gitBranch),
    git_commit: maybe(ending.gitCommit),
    metadata_json: text(JSON.stringify(run.metadata)),
    playwright_version: maybe(run.playwrightVersion),
    shard_current: run.shard?.current ?? null,
    shard_total: run.shard?.total ?? null,
    started_at: Math.round(run.startedAt ?? header.fallbackStartedAt),
    duration_ms: run.durationMs,
    reviewed_at: header.approve && !duplicate ? now : null,
    total_tests: run.counts.tests,
    passed_tests: run.counts.passed,
    failed_tests: run.counts.failed,
    skipped_tests: run.counts.skipped,
    flaky_tests: run.counts.flaky,
    load_failed: run.loadFailed ? 1 : 0,
    outage: outage ? 1 : 0,
    errors_json: run.errors.length > 0 ? text(JSON.stringify(run.errors)) : null,
    build_id: maybe(ending.buildId),
    build_url: maybe(ending.buildUrl),
  };
}
