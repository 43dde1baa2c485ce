import { isOutage } from '../../core/analytics/outage.js';
import type { NormalisedRun, NormalisedTest } from '../../core/report/normalised.js';
import type { SqliteDatabase, Store } from './open.js';
import { addRunToRollups } from './rollups.js';
import type { ReviewStatus } from './schema.js';

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
  approve: boolean;
  uploadedBy: number | null;
  now?: number;
  /** Called every few thousand tests of a big report, for a progress display. */
  onProgress?: (stored: number, total: number) => void;
}

const PROGRESS_EVERY = 2000;

export interface StoredRun {
  runId: number;
  duplicate: boolean;
  duplicateOf: number | null;
  status: ReviewStatus;
}

/**
 * Stores one normalised report in one transaction: a report is stored whole or not at all.
 * Same content as a run that is not rejected is a duplicate: kept as a pending row (so a
 * reviewer sees it and rejects it) with no results of its own, so it never counts twice.
 */
export function writeRun(store: Store, input: RunToStore): StoredRun {
  const statements = preparedFor(store.sqlite);
  const insert = store.sqlite.transaction((): StoredRun => {
    const original = statements.findByHash.get(input.contentHash) as { id: number } | undefined;
    const duplicate = original !== undefined;
    const status: ReviewStatus = input.approve && !duplicate ? 'approved' : 'pending';
    const { run } = input;
    const startedAt = run.startedAt ?? input.fallbackStartedAt;
    const now = input.now ?? Date.now();
    const info = statements.insertRun.run({
      status,
      is_duplicate: duplicate ? 1 : 0,
      duplicate_of: original?.id ?? null,
      content_hash: input.contentHash,
      file_name: input.fileName,
      file_size: input.fileSize,
      project: input.project,
      browser: run.detected.browser,
      git_branch: input.gitBranch,
      git_commit: input.gitCommit,
      metadata_json: JSON.stringify(run.metadata),
      playwright_version: run.playwrightVersion,
      shard_current: run.shard?.current ?? null,
      shard_total: run.shard?.total ?? null,
      started_at: Math.round(startedAt),
      duration_ms: run.durationMs,
      uploaded_at: now,
      uploaded_by: input.uploadedBy,
      reviewed_by: null,
      reviewed_at: input.approve && !duplicate ? now : null,
      total_tests: run.counts.tests,
      passed_tests: run.counts.passed,
      failed_tests: run.counts.failed,
      skipped_tests: run.counts.skipped,
      flaky_tests: run.counts.flaky,
      load_failed: run.loadFailed ? 1 : 0,
      outage: isOutage(run) ? 1 : 0,
      errors_json: run.errors.length > 0 ? JSON.stringify(run.errors) : null,
    });
    const runId = Number(info.lastInsertRowid);
    if (!duplicate) {
      const testIds = new Map<string, number>();
      const projects = new Set<string>();
      const total = run.tests.length;
      for (let i = 0; i < total; i++) {
        writeResult(statements, runId, startedAt, run.tests[i]!, testIds, projects);
        if (input.onProgress && (i + 1) % PROGRESS_EVERY === 0) input.onProgress(i + 1, total);
      }
      addRunToRollups(store.sqlite, runId);
    }
    return { runId, duplicate, duplicateOf: original?.id ?? null, status };
  });
  // IMMEDIATE takes the write lock first, so two imports of the same file cannot both see
  // "no original" and store two originals.
  return insert.immediate();
}

function writeResult(s: Statements, runId: number, runStartedAt: number, test: NormalisedTest, testIds: Map<string, number>, projects: Set<string>): void {
  const titlePath = JSON.stringify(test.titlePath);
  const key = `${test.file}\u0000${titlePath}`;
  let testId = testIds.get(key);
  if (testId === undefined) {
    const existing = s.findTest.get(test.file, titlePath) as { id: number } | undefined;
    testId = existing ? existing.id : Number(s.insertTest.run(test.file, titlePath, test.title).lastInsertRowid);
    testIds.set(key, testId);
  }
  const error = test.error;
  if (error) s.rememberError.run(error.fingerprint, error.category, error.summary, error.message);
  if (!projects.has(test.browser)) {
    projects.add(test.browser);
    s.rememberProject.run(test.browser, test.projectName || test.browser);
  }
  const resultId = Number(
    s.insertResult.run(
      runId,
      testId,
      test.browser,
      test.projectName,
      test.repeatIndex,
      test.line,
      test.column,
      test.startedAt ?? runStartedAt,
      test.status,
      test.finalStatus,
      test.outcome,
      test.expectedStatus,
      test.passedOnRetry ? 1 : 0,
      test.retries,
      test.durationMs,
      error?.message ?? null,
      error?.category ?? null,
      error?.fingerprint ?? null,
      error?.summary ?? null,
      error?.location ?? null,
      error?.snippet ?? null,
      error?.stack ?? null,
      test.tags.length > 0 ? JSON.stringify(test.tags) : null,
      test.annotations.length > 0 ? JSON.stringify(test.annotations) : null,
    ).lastInsertRowid,
  );
  for (let i = 0; i < test.attempts.length; i++) {
    const a = test.attempts[i]!;
    s.insertAttempt.run(
      resultId,
      i,
      a.status,
      a.durationMs,
      a.startedAt,
      a.error?.message ?? null,
      a.otherErrors.length > 0 ? JSON.stringify(a.otherErrors) : null,
      a.steps.length > 0 ? JSON.stringify(a.steps) : null,
      a.stdout || null,
      a.stderr || null,
      a.attachments.length > 0 ? JSON.stringify(a.attachments) : null,
    );
  }
}

type Statements = ReturnType<typeof prepare>;
const cache = new WeakMap<SqliteDatabase, Statements>();

function preparedFor(sqlite: SqliteDatabase): Statements {
  let statements = cache.get(sqlite);
  if (!statements) {
    statements = prepare(sqlite);
    cache.set(sqlite, statements);
  }
  return statements;
}

// Kysely compiles a query per call; the bulk path of an import uses prepared statements.
function prepare(sqlite: SqliteDatabase) {
  return {
    findByHash: sqlite.prepare(`SELECT id FROM runs WHERE content_hash = ? AND status != 'rejected' AND is_duplicate = 0 ORDER BY id LIMIT 1`),
    insertRun: sqlite.prepare(`INSERT INTO runs (
        status, is_duplicate, duplicate_of, content_hash, file_name, file_size, project, browser, git_branch, git_commit,
        metadata_json, playwright_version, shard_current, shard_total, started_at, duration_ms, uploaded_at, uploaded_by,
        reviewed_by, reviewed_at, total_tests, passed_tests, failed_tests, skipped_tests, flaky_tests, load_failed, outage, errors_json
      ) VALUES (
        @status, @is_duplicate, @duplicate_of, @content_hash, @file_name, @file_size, @project, @browser, @git_branch, @git_commit,
        @metadata_json, @playwright_version, @shard_current, @shard_total, @started_at, @duration_ms, @uploaded_at, @uploaded_by,
        @reviewed_by, @reviewed_at, @total_tests, @passed_tests, @failed_tests, @skipped_tests, @flaky_tests, @load_failed, @outage, @errors_json
      )`),
    findTest: sqlite.prepare(`SELECT id FROM tests WHERE file = ? AND title_path = ?`),
    insertTest: sqlite.prepare(`INSERT INTO tests (file, title_path, title) VALUES (?, ?, ?)`),
    insertResult: sqlite.prepare(`INSERT INTO results (
        run_id, test_id, browser, project_name, repeat_index, line, col, started_at, status, final_status, outcome,
        expected_status, passed_on_retry, retries, duration_ms, error_message, error_category, error_fingerprint,
        error_summary, error_location, error_snippet, error_stack, tags_json, annotations_json
      ) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    rememberError: sqlite.prepare('INSERT OR IGNORE INTO error_samples (fingerprint, category, summary, message) VALUES (?, ?, ?, ?)'),
    rememberProject: sqlite.prepare('INSERT OR IGNORE INTO browser_projects (browser, project_name) VALUES (?, ?)'),
    insertAttempt: sqlite.prepare(`INSERT INTO attempts (
        result_id, retry, status, duration_ms, started_at, error_message, other_errors_json, steps_json, stdout, stderr, attachments_json
      ) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
  };
}
