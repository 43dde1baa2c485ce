import { stripAnsi } from '../../../core/ansi.js';
import { RESULT_ROW_MESSAGE_CHARS, type RunResultSort, type RunResultStatus, type RunResultsQuery, type TestResultRow } from '../../../core/api/uploads.js';
import type { Paged } from '../../../core/api/analytics.js';
import { dialectFor, type DialectName } from '../engine/dialect.js';
import type { AnyStore, SqliteDatabase } from '../engine/types.js';
import { perConnection } from '../engine/per-connection.js';
import { withAttempts } from './attempt-evidence.js';

/**
 * One page of a run's results for the run details table (docs/screens.md#run-details): searched over
 * title, file and error message, filtered by status and sorted here, so a run of 50,000 tests
 * sends 50 rows, not 21 MB.
 */

export const RESULT_COLUMNS = `r.id, t.title AS test_title, t.title_path, t.file AS test_file, r.browser, r.project_name, r.status, r.outcome,
  r.duration_ms, substr(r.error_message, 1, ${RESULT_ROW_MESSAGE_CHARS}) AS error_message, r.error_category, r.retries AS retry_count`;

export type RawResultRow = Omit<TestResultRow, 'test_full_title' | 'attempts'> & { title_path: string };

const withTitle = ({ title_path, ...row }: RawResultRow): Omit<TestResultRow, 'attempts'> => ({
  ...row,
  test_full_title: (JSON.parse(title_path) as string[]).join(' › '),
});

/** The rows as the API sends them: the full title, and every attempt with its evidence. */
export const toResultRows = (store: AnyStore, rows: RawResultRow[]): Promise<TestResultRow[]> => withAttempts(store, rows.map(withTitle));

const STATUS_WHERE: Record<RunResultStatus, string> = {
  all: '',
  passed: `AND r.status = 'passed'`,
  // timedOut counts as failed (docs/screens.md#status-rules).
  failed: `AND r.status IN ('failed', 'timedOut')`,
  skipped: `AND r.status = 'skipped'`,
};

// NOCASE first so 'apple' and 'Banana' read alphabetically, then exact for a stable order.
function orderFor(dialect: DialectName): Record<RunResultSort, string> {
  const r = dialectFor(dialect);
  const byName = `${r.asciiNocase('t.title')}, ${r.bytes('t.title')}, ${r.asciiNocase('t.file')}, ${r.bytes('t.file')}, ${r.bytes('r.browser')}, r.id`;
  return {
    // Failures first: they are what a reader of a run looks for.
    status: `CASE r.status WHEN 'failed' THEN 0 WHEN 'timedOut' THEN 1 WHEN 'passed' THEN 2 ELSE 3 END, ${byName}`,
    duration: `r.duration_ms DESC, ${byName}`,
    name: byName,
  };
}

/**
 * Case-insensitive search over what the table shows and the whole error, colour codes
 * stripped: a JS function, since SQLite's lower() folds ASCII only and codes sit inside words.
 * Cheap fields first; the full title is parsed only when the others miss.
 */
function matches(titlePath: string, title: string, file: string, message: string | null, needle: string): number {
  if (title.toLowerCase().includes(needle) || file.toLowerCase().includes(needle)) return 1;
  if (message !== null && stripAnsi(message).toLowerCase().includes(needle)) return 1;
  return (JSON.parse(titlePath) as string[]).join(' › ').toLowerCase().includes(needle) ? 1 : 0;
}

const STATUSES = Object.keys(STATUS_WHERE) as RunResultStatus[];
const SORTS: RunResultSort[] = ['status', 'duration', 'name'];

/** The texts on one engine, every status and sort, made once: SQLite's connection keeps prepared statements by text. */
function textsFor(dialect: DialectName) {
  const t = dialectFor(dialect);
  const order = orderFor(dialect);
  const where = (status: RunResultStatus) => `r.run_id = @runId ${STATUS_WHERE[status]}`;
  const each = <K extends string>(keys: readonly K[], text: (key: K) => string) => Object.fromEntries(keys.map((k) => [k, text(k)])) as Record<K, string>;
  return {
    /** A page by status alone (no search), per `${status}/${sort}`. */
    rows: Object.fromEntries(
      STATUSES.flatMap((status) => SORTS.map((sort) => [`${status}/${sort}`, `SELECT ${RESULT_COLUMNS} FROM results r JOIN tests t ON t.id = r.test_id WHERE ${where(status)} ORDER BY ${order[sort]} LIMIT @limit OFFSET @offset`])),
    ) as Record<string, string>,
    count: each(STATUSES, (status) => `SELECT count(*) FROM results r JOIN tests t ON t.id = r.test_id WHERE ${where(status)}`),
    /** SQLite: the ids of the results a search matches, by the JS function flakeboard_result_matches. */
    matching: each(STATUSES, (status) => `SELECT r.id FROM results r JOIN tests t ON t.id = r.test_id WHERE ${where(status)} AND flakeboard_result_matches(t.title_path, t.title, t.file, r.error_message, @needle)`),
    /** PostgreSQL: what the search reads of each result, matched here (it runs no JS). */
    searched: each(STATUSES, (status) => `SELECT r.id, t.title_path, t.title, t.file, r.error_message FROM results r JOIN tests t ON t.id = r.test_id WHERE ${where(status)} ORDER BY r.id`),
    /** A page of the results of a search, in the table's order. */
    pageOfIds: each(SORTS, (sort) => `SELECT ${RESULT_COLUMNS} FROM results r JOIN tests t ON t.id = r.test_id WHERE ${t.inJsonNumbers('r.id', '@ids')} ORDER BY ${order[sort]} LIMIT @limit OFFSET @offset`),
  };
}
const TEXTS = { sqlite: textsFor('sqlite'), postgres: textsFor('postgres') };

// The search function lives on the SQLite connection, which the store's Kysely uses too.
const withSearchFunction = perConnection((sqlite: SqliteDatabase) => {
  sqlite.function('flakeboard_result_matches', { deterministic: true }, (titlePath, title, file, message, needle) =>
    matches(String(titlePath), String(title), String(file), message === null ? null : String(message), String(needle)),
  );
  return true;
});

/** The ids of the results of the run a search matches: the one scan of the run's text a search costs. */
async function matchingIds(store: AnyStore, runId: number, status: RunResultStatus, needle: string): Promise<number[]> {
  const texts = TEXTS[store.dialect];
  if (store.dialect === 'sqlite') {
    // SQLite calls the JS matcher per row, in place: no row's text is copied out first.
    withSearchFunction(store.sqlite);
    return (await store.sql.all<{ id: number }>(texts.matching[status], { runId, needle })).map((row) => row.id);
  }
  const rows = await store.sql.all<{ id: number; title_path: string; title: string; file: string; error_message: string | null }>(texts.searched[status], { runId });
  return rows.filter((row) => matches(row.title_path, row.title, row.file, row.error_message, needle) === 1).map((row) => row.id);
}

export async function runResultsPage(store: AnyStore, runId: number, query: RunResultsQuery): Promise<Paged<TestResultRow>> {
  const status = query.status ?? 'all';
  const sort = query.sort ?? 'status';
  const needle = (query.search ?? '').trim().toLowerCase();
  const texts = TEXTS[store.dialect];
  const window = { limit: query.pageSize, offset: (query.page - 1) * query.pageSize };
  if (needle === '') {
    const items = await store.sql.all<RawResultRow>(texts.rows[`${status}/${sort}`]!, { runId, ...window });
    return { items: await toResultRows(store, items), total: (await store.sql.value<number>(texts.count[status], { runId }))!, page: query.page, pageSize: query.pageSize };
  }
  // Searching reads every error message of the run (up to the body limit of text): once, not
  // once for the page and again for the total (third attacker review: each distinct search held
  // the analytics worker twice as long).
  const ids = await matchingIds(store, runId, status, needle);
  const items = ids.length === 0 ? [] : await store.sql.all<RawResultRow>(texts.pageOfIds[sort], { ids: JSON.stringify(ids), ...window });
  return { items: await toResultRows(store, items), total: ids.length, page: query.page, pageSize: query.pageSize };
}
