/**
 * Removing old runs (`flakeboard prune`): whole runs, oldest first, a few at a time, each batch
 * in its own short transaction that also rebuilds the rollups of the days it touched, so a
 * `serve` on the same file keeps answering (WAL: its reads never wait; its writes wait for one
 * batch at most). Then the freed pages go back to the disk where the file allows it.
 */
import type { AnyStore, Store, PostgresStore } from '../engine/types.js';
import { fileSpace } from '../engine/maintenance.js';
import { DAY_MS } from '../engine/rollup-shape.js';
import { withRollupRefresh } from './rollups.js';
import { postgresDialect, sqliteDialect, type Dialect } from '../engine/dialect.js';
import { lockRollups, withRollupRefreshPostgres } from './rollups-postgres.js';

export interface PruneCounts {
  runs: number;
  results: number;
  attempts: number;
}

export interface PrunePlan extends PruneCounts {
  /** Runs that started before this moment (UTC ms) go. */
  before: number;
  oldest: number | null;
  newest: number | null;
  /** A rough share of the file: the rows to go over all result and attempt rows. */
  bytesEstimate: number;
}

export interface PruneBatch extends PruneCounts {
  /** Test identities whose every result went. */
  tests: number;
  /** UTC days (epoch days) whose rollups were rebuilt. */
  days: number[];
}

/** What planPrune counts, on either engine: runs that started before @before, their results and attempts, and all result and attempt rows. */
const PLAN = {
  runs: 'SELECT count(*) AS n, min(started_at) AS oldest, max(started_at) AS newest FROM runs WHERE started_at < @before',
  results: 'SELECT count(*) FROM results WHERE run_id IN (SELECT id FROM runs WHERE started_at < @before)',
  attempts: 'SELECT count(*) FROM attempts WHERE result_id IN (SELECT r.id FROM results r JOIN runs ON runs.id = r.run_id WHERE runs.started_at < @before)',
  allRows: 'SELECT (SELECT count(*) FROM results) + (SELECT count(*) FROM attempts)',
};

/**
 * What pruneBatch runs on the runs of a batch (@ids, a JSON array), on either engine. A run goes
 * with its duplicates, as deleteRun does: they are copies that show its results.
 */
const batchSql = (t: Dialect) => {
  const inBatch = t.inJsonNumbers('run_id', '@ids');
  return {
    days: `SELECT DISTINCT started_at / ${DAY_MS} AS day FROM results WHERE ${inBatch} ORDER BY 1`,
    attempts: `SELECT count(*) FROM attempts WHERE result_id IN (SELECT id FROM results WHERE ${inBatch})`,
    deleteResults: `DELETE FROM results WHERE ${inBatch}`,
    deleteRuns: `DELETE FROM runs WHERE ${t.inJsonNumbers('id', '@ids')} OR ${t.inJsonNumbers('duplicate_of', '@ids')}`,
  };
};
const BATCH_SQLITE = batchSql(sqliteDialect);
const BATCH_POSTGRES = batchSql(postgresDialect);

/** What a prune would remove, read without a write lock. On SQLite synchronous; on PostgreSQL a promise. */
export function planPrune(store: Store, before: number): PrunePlan;
export function planPrune(store: AnyStore, before: number): PrunePlan | Promise<PrunePlan>;
export function planPrune(store: AnyStore, before: number): PrunePlan | Promise<PrunePlan> {
  if (store.dialect === 'postgres') return planPrunePostgres(store, before);
  const s = store.sqlite;
  const runs = s.prepare(PLAN.runs).get({ before }) as { n: number; oldest: number | null; newest: number | null };
  const results = s.prepare(PLAN.results).pluck().get({ before }) as number;
  const attempts = s.prepare(PLAN.attempts).pluck().get({ before }) as number;
  const totalRows = s.prepare(PLAN.allRows).pluck().get() as number;
  const { used } = fileSpace(s);
  return {
    before,
    runs: runs.n,
    oldest: runs.oldest,
    newest: runs.newest,
    results,
    attempts,
    bytesEstimate: totalRows === 0 ? 0 : Math.round((used * (results + attempts)) / totalRows),
  };
}

/**
 * The scratch table of the tests a batch touched. Made before any batch, outside a
 * transaction: one made inside a transaction that rolls back would vanish under the statements.
 */
export function preparePrune(store: AnyStore): void {
  // PostgreSQL keeps the batch's tests in the transaction itself (pruneBatchPostgres).
  if (store.dialect === 'sqlite') store.sqlite.exec('CREATE TEMP TABLE IF NOT EXISTS prune_tests (test_id INTEGER PRIMARY KEY)');
}

/**
 * Removes the oldest runs that started before `before`, whole, with their results, attempts
 * and duplicates, up to about `maxResults` results (always at least one run: a run goes in one
 * transaction, as it came, so it never holds the lock longer than its import did). Returns
 * null when nothing is left to remove.
 */
export function pruneBatch(store: Store, before: number, maxResults: number): PruneBatch | null;
export function pruneBatch(store: AnyStore, before: number, maxResults: number): PruneBatch | null | Promise<PruneBatch | null>;
export function pruneBatch(store: AnyStore, before: number, maxResults: number): PruneBatch | null | Promise<PruneBatch | null> {
  if (store.dialect === 'postgres') return pruneBatchPostgres(store, before, maxResults);
  const s = store.sqlite;
  return s
    .transaction((): PruneBatch | null => {
      const candidates = s.prepare(CANDIDATES).all({ before }) as Array<{ id: number; started_at: number; results: number }>;
      if (candidates.length === 0) return null;
      const ids = batchOf(candidates, maxResults);
      const list = { ids: JSON.stringify(ids) };
      const days = s.prepare(BATCH_SQLITE.days).pluck().all(list) as number[];
      const attempts = s.prepare(BATCH_SQLITE.attempts).pluck().get(list) as number;
      s.prepare('DELETE FROM temp.prune_tests').run();
      s.prepare(`INSERT OR IGNORE INTO temp.prune_tests SELECT DISTINCT test_id FROM results WHERE ${sqliteDialect.inJsonNumbers('run_id', '@ids')}`).run(list);
      let results = 0;
      let runs = 0;
      withRollupRefresh(s, ids, () => {
        results = s.prepare(BATCH_SQLITE.deleteResults).run(list).changes;
        runs = s.prepare(BATCH_SQLITE.deleteRuns).run(list).changes;
      });
      // A test identity whose last result went is under the runs too; others keep theirs.
      const tests = s.prepare('DELETE FROM tests WHERE id IN (SELECT test_id FROM temp.prune_tests) AND NOT EXISTS (SELECT 1 FROM results r WHERE r.test_id = tests.id)').run().changes;
      s.prepare('DELETE FROM temp.prune_tests').run();
      return { runs, results, attempts, tests, days };
    })
    .immediate();
}

const CANDIDATES = 'SELECT id, started_at, (SELECT count(*) FROM results r WHERE r.run_id = runs.id) AS results FROM runs WHERE started_at < @before ORDER BY started_at, id LIMIT 200';

/** The runs of one batch, oldest first: about `maxResults` results, at least one run. */
function batchOf(candidates: ReadonlyArray<{ id: number; started_at: number; results: number }>, maxResults: number): number[] {
  const ids: number[] = [];
  let used = 0;
  let lastDay: number | null = null;
  for (const run of candidates) {
    const day = Math.floor(run.started_at / DAY_MS);
    // A batch goes on to the end of its last day (within twice the budget): the rebuild of a
    // day with runs left on it reads them all again, one of a day left empty reads nothing.
    const fits = used + run.results <= maxResults || (day === lastDay && used + run.results <= 2 * maxResults);
    if (ids.length > 0 && !fits) break;
    ids.push(run.id);
    used += run.results;
    lastDay = day;
  }
  return ids;
}

/**
 * planPrune on PostgreSQL: the same counts; the share of the rows to go is of the two tables'
 * size on disk (the server's file space is its own: no free pages to read, no VACUUM here).
 */
async function planPrunePostgres(store: PostgresStore, before: number): Promise<PrunePlan> {
  const sql = store.sql;
  const runs = (await sql.get<{ n: number; oldest: number | null; newest: number | null }>(PLAN.runs, { before }))!;
  const results = Number(await sql.value(PLAN.results, { before }));
  const attempts = Number(await sql.value(PLAN.attempts, { before }));
  const totalRows = Number(await sql.value(PLAN.allRows));
  const used = Number(await sql.value(`SELECT pg_total_relation_size('results') + pg_total_relation_size('attempts')`));
  return { before, runs: Number(runs.n), oldest: runs.oldest, newest: runs.newest, results, attempts, bytesEstimate: totalRows === 0 ? 0 : Math.round((used * (results + attempts)) / totalRows) };
}

/** pruneBatch on PostgreSQL: one transaction after the rollup lock, the batch's tests held in it rather than in a scratch table. */
async function pruneBatchPostgres(store: PostgresStore, before: number, maxResults: number): Promise<PruneBatch | null> {
  return store.transaction(async (sql) => {
    await lockRollups(sql);
    const candidates = await sql.all<{ id: number; started_at: number; results: number }>(CANDIDATES, { before });
    if (candidates.length === 0) return null;
    const ids = batchOf(candidates, maxResults);
    const list = { ids: JSON.stringify(ids) };
    const days = (await sql.all<{ day: number }>(BATCH_POSTGRES.days, list)).map((row) => Number(row.day));
    const attempts = Number(await sql.value(BATCH_POSTGRES.attempts, list));
    const tests = (await sql.all<{ test_id: number }>(`SELECT DISTINCT test_id FROM results WHERE ${postgresDialect.inJsonNumbers('run_id', '@ids')}`, list)).map((row) => Number(row.test_id));
    let results = 0;
    let runs = 0;
    await withRollupRefreshPostgres(sql, ids, async () => {
      results = await sql.run(BATCH_POSTGRES.deleteResults, list);
      runs = await sql.run(BATCH_POSTGRES.deleteRuns, list);
    });
    // A test identity whose last result went is under the runs too; others keep theirs.
    const gone = await sql.run('DELETE FROM tests WHERE id = ANY(CAST(@tests AS BIGINT[])) AND NOT EXISTS (SELECT 1 FROM results r WHERE r.test_id = tests.id)', { tests });
    return { runs, results, attempts, tests: gone, days };
  });
}

/**
 * Returns free pages to the disk in steps of `step` pages, each its own short write, when the
 * file was made with auto_vacuum = incremental. Returns the bytes given back (0 otherwise).
 */
export function incrementalVacuum(store: Store, step = 2048): number {
  const s = store.sqlite;
  const before = fileSpace(s);
  if (before.autoVacuum !== 'incremental') return 0;
  let left = before.freePages;
  while (left > 0) {
    s.pragma(`incremental_vacuum(${step})`);
    const now = fileSpace(s).freePages;
    if (now >= left) break;
    left = now;
  }
  return (before.freePages - left) * before.pageSize;
}

/**
 * Rewrites the whole file without its free pages and switches it to incremental auto-vacuum,
 * so later prunes give space back without this. Holds the write lock for the whole rewrite.
 */
export function fullVacuum(store: Store): number {
  const s = store.sqlite;
  const before = fileSpace(s);
  s.pragma('auto_vacuum = INCREMENTAL');
  s.exec('VACUUM');
  const after = fileSpace(s);
  return Math.max(0, before.pages * before.pageSize - after.pages * after.pageSize);
}

/** Moves what the WAL holds into the file without waiting for readers (they may hold it back). */
export function checkpoint(store: Store): void {
  store.sqlite.pragma('wal_checkpoint(PASSIVE)');
}
