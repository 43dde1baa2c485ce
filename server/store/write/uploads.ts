import type { PendingUpload, RecentUpload, ReviewStatus } from '../../../core/api/uploads.js';
import type { AnyStore, Store, PostgresStore } from '../engine/types.js';
import { withRollupRefresh } from './rollups.js';
import { lockRollups, withRollupRefreshPostgres } from './rollups-postgres.js';
import type { Sql } from '../engine/sql.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

function uploadsQuery(store: AnyStore) {
  return store.db
    .selectFrom('runs')
    .leftJoin('users as uploader', 'uploader.id', 'runs.uploaded_by')
    .leftJoin('users as reviewer', 'reviewer.id', 'runs.reviewed_by')
    .select([
      'runs.id',
      'runs.status',
      'runs.uploaded_at',
      'runs.started_at',
      'runs.file_name',
      'runs.project',
      'runs.browser',
      'runs.total_tests',
      'runs.passed_tests',
      'runs.failed_tests',
      'runs.skipped_tests',
      'runs.flaky_tests',
      'runs.git_branch',
      'runs.git_commit',
      'runs.build_id',
      'runs.build_url',
      'runs.shard_current',
      'runs.shard_total',
      'runs.reviewed_at',
      'runs.review_notes',
      'runs.is_duplicate',
      'runs.duplicate_of',
      'runs.duration_ms',
      'runs.playwright_version',
      'runs.load_failed',
      'runs.errors_json',
      'runs.uploaded_via',
      'uploader.username as uploaded_by_username',
      'reviewer.username as reviewed_by_username',
    ]);
}

type UploadRow = Awaited<ReturnType<ReturnType<typeof uploadsQuery>['executeTakeFirstOrThrow']>>;

function toRecent(row: UploadRow): RecentUpload {
  return {
    id: row.id,
    status: row.status,
    timestamp: iso(row.uploaded_at)!,
    execution_time: iso(row.started_at)!,
    file_path: row.file_name,
    project: row.project,
    browser: row.browser,
    total_tests: row.total_tests,
    passed_tests: row.passed_tests,
    failed_tests: row.failed_tests,
    skipped_tests: row.skipped_tests,
    flaky_tests: row.flaky_tests,
    git_branch: row.git_branch,
    git_commit: row.git_commit,
    build_id: row.build_id,
    build_url: row.build_url,
    shard_current: row.shard_current,
    shard_total: row.shard_total,
    uploaded_by_username: row.uploaded_by_username,
    uploaded_via: row.uploaded_via,
    reviewed_by_username: row.reviewed_by_username,
    reviewed_at: iso(row.reviewed_at),
    review_notes: row.review_notes,
    is_duplicate: row.is_duplicate ? 1 : 0,
    duration_ms: row.duration_ms,
  };
}

export async function pendingUploads(store: AnyStore): Promise<PendingUpload[]> {
  const rows = await uploadsQuery(store).where('runs.status', '=', 'pending').orderBy('runs.uploaded_at', 'desc').orderBy('runs.id', 'desc').execute();
  return rows.map((row) => ({
    id: row.id,
    file_path: row.file_name,
    browser: row.browser,
    project: row.project,
    timestamp: iso(row.uploaded_at)!,
    uploaded_by_username: row.uploaded_by_username,
    uploaded_via: row.uploaded_via,
    git_branch: row.git_branch,
    build_id: row.build_id,
    total_tests: row.total_tests,
    passed_tests: row.passed_tests,
    failed_tests: row.failed_tests,
    is_duplicate: row.is_duplicate ? 1 : 0,
  }));
}

export async function recentUploads(store: AnyStore, options: { status?: ReviewStatus; limit: number; offset?: number }): Promise<RecentUpload[]> {
  let query = uploadsQuery(store).orderBy('runs.uploaded_at', 'desc').orderBy('runs.id', 'desc').limit(options.limit).offset(options.offset ?? 0);
  if (options.status) query = query.where('runs.status', '=', options.status);
  return (await query.execute()).map(toRecent);
}

/** How many uploads the recent list holds in all (of one status, if given). */
export async function recentUploadCount(store: AnyStore, status?: ReviewStatus): Promise<number> {
  let query = store.db.selectFrom('runs').select((eb) => eb.fn.countAll<number>().as('n'));
  if (status) query = query.where('runs.status', '=', status);
  return (await query.executeTakeFirstOrThrow()).n;
}

export async function findUpload(store: AnyStore, id: number) {
  const row = await uploadsQuery(store).where('runs.id', '=', id).executeTakeFirst();
  if (!row) return null;
  const errors = row.errors_json ? (JSON.parse(row.errors_json) as Array<{ message: string; location: string | null }>) : [];
  return {
    ...toRecent(row),
    duplicate_of: row.duplicate_of,
    playwright_version: row.playwright_version,
    load_failed: (row.load_failed ? 1 : 0) as 0 | 1,
    load_errors: errors.map((e) => ({ message: e.message, location: e.location })),
  };
}

export class ReviewError extends Error {
  constructor(
    readonly statusCode: 400 | 403 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

type Review = { id: number; action: 'approve' | 'reject' };
/** `secondPerson`: an upload may not be approved by the user who uploaded it (the admin setting). */
type Reviewer = { id: number; notes: string | null; secondPerson?: boolean };

/**
 * Reviews pending runs in one transaction: every change or none. Approving keeps a run;
 * rejecting removes its results from the analytics and keeps the row as an audit record.
 * On SQLite synchronous, as it always was; on PostgreSQL a promise (reviewUploadsPostgres).
 */
export function reviewUploads(store: Store, reviews: ReadonlyArray<Review>, reviewer: Reviewer, now?: number): void;
export function reviewUploads(store: AnyStore, reviews: ReadonlyArray<Review>, reviewer: Reviewer, now?: number): void | Promise<void>;
export function reviewUploads(store: AnyStore, reviews: ReadonlyArray<Review>, reviewer: Reviewer, now = Date.now()): void | Promise<void> {
  if (store.dialect === 'postgres') return reviewUploadsPostgres(store, reviews, reviewer, now);
  const find = store.sqlite.prepare(REVIEW.find);
  const update = store.sqlite.prepare(REVIEW.update);
  const dropResults = store.sqlite.prepare(REVIEW.dropResults);
  const rejectCopies = store.sqlite.prepare(REVIEW.rejectCopies);
  store.sqlite
    .transaction(() => {
      const seen = new Set<number>();
      const rejectedOriginals: number[] = [];
      for (const { id, action } of reviews) {
        const run = checkReview(seen, id, action, find.get({ id }) as ReviewedRun | undefined, reviewer);
        update.run(reviewed(id, action, reviewer, now));
        if (action === 'reject') {
          withRollupRefresh(store.sqlite, [id], () => dropResults.run({ id }));
          if (!run.is_duplicate) rejectedOriginals.push(id);
        }
      }
      // After the listed reviews, so a batch may name the copies itself.
      for (const id of rejectedOriginals) rejectCopies.run(copiesRejected(id, reviewer, now));
    })
    .immediate();
}

/** A review's statements, on either engine (PostgreSQL also locks the row it reads: FOR UPDATE). */
const REVIEW = {
  find: 'SELECT id, status, is_duplicate, uploaded_by FROM runs WHERE id = @id',
  update: 'UPDATE runs SET status = @status, reviewed_by = @by, reviewed_at = @at, review_notes = @notes WHERE id = @id',
  dropResults: 'DELETE FROM results WHERE run_id = @id',
  // Copies of a rejected original share its verdict: they would otherwise hang pending with
  // no results to show and no way to be approved.
  rejectCopies: `UPDATE runs SET status = 'rejected', reviewed_by = @by, reviewed_at = @at, review_notes = @notes WHERE duplicate_of = @id AND status = 'pending'`,
};

const reviewed = (id: number, action: Review['action'], reviewer: Reviewer, now: number) => ({ id, status: action === 'approve' ? 'approved' : 'rejected', by: reviewer.id, at: now, notes: reviewer.notes });
const copiesRejected = (id: number, reviewer: Reviewer, now: number) => ({ id, by: reviewer.id, at: now, notes: reviewer.notes ?? `duplicate of upload ${id}, rejected with it` });

type ReviewedRun = { id: number; status: ReviewStatus; is_duplicate: number; uploaded_by: number | null };

/** Whether the review may be done (the same rules on both engines); throws a ReviewError if not. */
function checkReview(seen: Set<number>, id: number, action: Review['action'], run: ReviewedRun | undefined, reviewer: Reviewer): ReviewedRun {
  if (seen.has(id)) throw new ReviewError(400, `Upload ${id} is listed twice`);
  seen.add(id);
  if (!run) throw new ReviewError(404, `Upload ${id} not found`);
  if (run.status !== 'pending') throw new ReviewError(409, `Upload ${id} was already ${run.status}`);
  if (action === 'approve' && run.is_duplicate) throw new ReviewError(400, `Upload ${id} is a duplicate and cannot be approved; reject it instead`);
  // PostgreSQL's BIGINT comes back as a string or a number depending on the driver's parsers.
  if (action === 'approve' && reviewer.secondPerson && run.uploaded_by !== null && Number(run.uploaded_by) === reviewer.id) {
    throw new ReviewError(403, `Upload ${id} was uploaded by you: a second person must approve it (an admin setting)`);
  }
  return run;
}

/**
 * reviewUploads on PostgreSQL, in one transaction. The rollup lock comes first: reviews,
 * deletes and imports on any server change the rollups one at a time, and a review sees the
 * status another server's review left (its run rows are read after the lock).
 */
async function reviewUploadsPostgres(store: PostgresStore, reviews: ReadonlyArray<Review>, reviewer: Reviewer, now: number): Promise<void> {
  await store.transaction(async (sql) => {
    await lockRollups(sql);
    const seen = new Set<number>();
    const rejectedOriginals: number[] = [];
    for (const { id, action } of reviews) {
      const run = checkReview(seen, id, action, await sql.get<ReviewedRun>(`${REVIEW.find} FOR UPDATE`, { id }), reviewer);
      await sql.run(REVIEW.update, reviewed(id, action, reviewer, now));
      if (action === 'reject') {
        await withRollupRefreshPostgres(sql, [id], () => sql.run(REVIEW.dropResults, { id }));
        if (!run.is_duplicate) rejectedOriginals.push(id);
      }
    }
    for (const id of rejectedOriginals) await sql.run(REVIEW.rejectCopies, copiesRejected(id, reviewer, now));
  });
}

const DELETE_RUN = 'DELETE FROM runs WHERE id = @id OR duplicate_of = @id';

/** A run goes with its duplicates: they are copies that show its results. */
export function deleteRun(store: Store, id: number): boolean;
export function deleteRun(store: AnyStore, id: number): boolean | Promise<boolean>;
export function deleteRun(store: AnyStore, id: number): boolean | Promise<boolean> {
  if (store.dialect === 'postgres') {
    return store.transaction((sql) => withRollupRefreshPostgres(sql, [id], async () => (await sql.run(DELETE_RUN, { id })) > 0));
  }
  const remove = store.sqlite.prepare(DELETE_RUN);
  return store.sqlite.transaction(() => withRollupRefresh(store.sqlite, [id], () => remove.run({ id }).changes > 0)).immediate();
}

/** What clearAllData empties, rollups first (nothing refers to them), then the rows results refer to last. */
const CLEARED = ['kept_answers', 'daily_test_stats', 'month_stats', 'week_stats', 'branch_day_stats', 'branch_month_stats', 'branch_week_stats', 'branch_test_totals', 'branches', 'test_totals', 'daily_error_stats', 'error_samples', 'browser_projects', 'attempts', 'results', 'runs', 'tests'];

/** Every run, result and test identity; users, sessions and tokens stay. */
export function clearAllData(store: Store): number;
export function clearAllData(store: AnyStore): number | Promise<number>;
export function clearAllData(store: AnyStore): number | Promise<number> {
  if (store.dialect === 'postgres') return store.transaction(clearAllPostgres);
  return store.sqlite
    .transaction(() => {
      const runs = (store.sqlite.prepare('SELECT count(*) AS n FROM runs').get() as { n: number }).n;
      for (const table of CLEARED) store.sqlite.exec(`DELETE FROM ${table}`);
      return runs;
    })
    .immediate();
}

/** clearAllData on PostgreSQL: the same tables in the same order, after the rollup lock. */
async function clearAllPostgres(sql: Sql): Promise<number> {
  await lockRollups(sql);
  const runs = Number(await sql.value('SELECT count(*) FROM runs'));
  for (const table of CLEARED) await sql.run(`DELETE FROM ${table}`);
  return runs;
}
