import { stripAnsi } from '../../core/ansi.js';
import {
  RESULT_ROW_MESSAGE_CHARS,
  type RunResultSort,
  type RunResultStatus,
  type RunResultsQuery,
  type TestResultRow,
} from '../../core/api/uploads.js';
import type { Paged } from '../../core/api/analytics.js';
import type { SqliteDatabase } from './open.js';
import { perConnection } from './per-connection.js';

/**
 * One page of a run's results for the run details table (SPEC.md section 2): searched over
 * title, file and error message, filtered by status and sorted here, so a run of 50,000 tests
 * sends 50 rows, not 21 MB.
 */

export const RESULT_COLUMNS = `r.id, t.title AS test_title, t.title_path, t.file AS test_file, r.browser, r.project_name, r.status, r.outcome,
  r.duration_ms, substr(r.error_message, 1, ${RESULT_ROW_MESSAGE_CHARS}) AS error_message, r.error_category, r.retries AS retry_count`;

export type RawResultRow = Omit<TestResultRow, 'test_full_title'> & { title_path: string };

export const toResultRow = ({ title_path, ...row }: RawResultRow): TestResultRow => ({
  ...row,
  test_full_title: (JSON.parse(title_path) as string[]).join(' › '),
});

const STATUS_WHERE: Record<RunResultStatus, string> = {
  all: '',
  passed: `AND r.status = 'passed'`,
  // timedOut counts as failed (SPEC.md section 3).
  failed: `AND r.status IN ('failed', 'timedOut')`,
  skipped: `AND r.status = 'skipped'`,
};

// NOCASE first so 'apple' and 'Banana' read alphabetically, then exact for a stable order.
const BY_NAME = 't.title COLLATE NOCASE, t.title, t.file COLLATE NOCASE, t.file, r.browser, r.id';
const ORDER: Record<RunResultSort, string> = {
  // Failures first: they are what a reader of a run looks for.
  status: `CASE r.status WHEN 'failed' THEN 0 WHEN 'timedOut' THEN 1 WHEN 'passed' THEN 2 ELSE 3 END, ${BY_NAME}`,
  duration: `r.duration_ms DESC, ${BY_NAME}`,
  name: BY_NAME,
};

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

const statementsFor = perConnection((sqlite: SqliteDatabase) => {
  sqlite.function('flakeboard_result_matches', { deterministic: true }, (titlePath, title, file, message, needle) =>
    matches(String(titlePath), String(title), String(file), message === null ? null : String(message), String(needle)),
  );
  const made = new Map<string, { rows: ReturnType<SqliteDatabase['prepare']>; count: ReturnType<SqliteDatabase['prepare']> }>();
  const found = new Map<RunResultStatus, ReturnType<SqliteDatabase['prepare']>>();
  const byIds = new Map<RunResultSort, ReturnType<SqliteDatabase['prepare']>>();
  return {
    /** A page and the total, by status alone (no search). */
    page(status: RunResultStatus, sort: RunResultSort) {
      const key = `${status}/${sort}`;
      let statements = made.get(key);
      if (!statements) {
        const where = `r.run_id = @runId ${STATUS_WHERE[status]}`;
        statements = {
          rows: sqlite.prepare(`SELECT ${RESULT_COLUMNS} FROM results r JOIN tests t ON t.id = r.test_id WHERE ${where} ORDER BY ${ORDER[sort]} LIMIT @limit OFFSET @offset`),
          count: sqlite.prepare(`SELECT count(*) FROM results r JOIN tests t ON t.id = r.test_id WHERE ${where}`).pluck(),
        };
        made.set(key, statements);
      }
      return statements;
    },
    /** The ids of the results a search matches: the one scan of the run's text a search costs. */
    matching(status: RunResultStatus) {
      let statement = found.get(status);
      if (!statement) {
        statement = sqlite
          .prepare(`SELECT r.id FROM results r JOIN tests t ON t.id = r.test_id WHERE r.run_id = @runId ${STATUS_WHERE[status]} AND flakeboard_result_matches(t.title_path, t.title, t.file, r.error_message, @needle)`)
          .pluck();
        found.set(status, statement);
      }
      return statement;
    },
    /** A page of those results, in the table's order. */
    pageOfIds(sort: RunResultSort) {
      let statement = byIds.get(sort);
      if (!statement) {
        statement = sqlite.prepare(
          `SELECT ${RESULT_COLUMNS} FROM results r JOIN tests t ON t.id = r.test_id WHERE r.id IN (SELECT value FROM json_each(@ids)) ORDER BY ${ORDER[sort]} LIMIT @limit OFFSET @offset`,
        );
        byIds.set(sort, statement);
      }
      return statement;
    },
  };
});

export function runResultsPage(sqlite: SqliteDatabase, runId: number, query: RunResultsQuery): Paged<TestResultRow> {
  const status = query.status ?? 'all';
  const sort = query.sort ?? 'status';
  const needle = (query.search ?? '').trim().toLowerCase();
  const statements = statementsFor(sqlite);
  const window = { limit: query.pageSize, offset: (query.page - 1) * query.pageSize };
  if (needle === '') {
    const { rows, count } = statements.page(status, sort);
    const items = rows.all({ runId, ...window }) as RawResultRow[];
    return { items: items.map(toResultRow), total: count.get({ runId }) as number, page: query.page, pageSize: query.pageSize };
  }
  // Searching reads every error message of the run (up to the body limit of text): once, not
  // once for the page and again for the total (third attacker review: each distinct search held
  // the analytics worker twice as long).
  const ids = statements.matching(status).all({ runId, needle }) as number[];
  const items = ids.length === 0 ? [] : (statements.pageOfIds(sort).all({ ids: JSON.stringify(ids), ...window }) as RawResultRow[]);
  return { items: items.map(toResultRow), total: ids.length, page: query.page, pageSize: query.pageSize };
}
