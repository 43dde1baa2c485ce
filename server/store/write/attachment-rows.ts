import type { NormalisedTest } from '../../../core/report/normalised.js';
import { postgresText } from '../engine/dialect.js';
import type { Sql } from '../engine/sql.js';
import type { SqliteDatabase } from '../engine/types.js';
import { perConnection } from '../engine/per-connection.js';

/** result_id, retry, ordinal, name, content_type, kind, sha256, size, state (as claimed). */
export type AttachmentRow = [number, number, number, string, string, string, string | null, number | null, string];

/** Evidence of a test that did not pass cleanly (failed, timed out, flaky): the quota keeps it longest. */
export const isFailingEvidence = (test: NormalisedTest): boolean => test.outcome === 'unexpected' || test.outcome === 'flaky';

/** The evidence rows of a result's attempts (retry numbered by position, as the attempts table is). */
export function attachmentRowsOf(resultId: number, test: NormalisedTest): AttachmentRow[] {
  const rows: AttachmentRow[] = [];
  test.attempts.forEach((attempt, retry) => {
    attempt.evidence?.forEach((evidence, ordinal) => {
      if (!evidence) return;
      const a = attempt.attachments[ordinal]!;
      rows.push([resultId, retry, ordinal, a.name, a.contentType, evidence.kind, evidence.sha256, evidence.size, evidence.state]);
    });
  });
  return rows;
}

// A claimed 'stored' is believed only if the blob's row is there, in this transaction: an upload
// that names a hash it never sent, or a blob dropped meanwhile, is recorded as not stored.
// Rows go in as one VALUES list per statement (SQLite names its columns column1…column9): a
// report moved without its output folder has tens of thousands, one statement each cost more
// than the results' inserts.
const ROWS_PER_STATEMENT = 100;
const COLUMNS = 9;

const valuesOf = (rows: number) => new Array<string>(rows).fill(`(${new Array<string>(COLUMNS).fill('?').join(', ')})`).join(', ');

function checkedInsertSql(rows: number): string {
  return `INSERT INTO attachments (result_id, retry, ordinal, name, content_type, kind, sha256, size, state)
    SELECT v.column1, v.column2, v.column3, v.column4, v.column5, v.column6, v.column7,
      coalesce(v.column8, (SELECT b.size FROM evidence_blobs b WHERE b.sha256 = v.column7)),
      CASE WHEN v.column9 = 'stored' AND NOT EXISTS (SELECT 1 FROM evidence_blobs b WHERE b.sha256 = v.column7) THEN 'not-stored' ELSE v.column9 END
    FROM (VALUES ${valuesOf(rows)}) AS v`;
}

// A row that names no blob and does not claim one stored (not found, too large, not stored) is
// stored as it is: the checks above would look up a null hash and keep its size and state.
const plainInsertSql = (rows: number) => `INSERT INTO attachments (result_id, retry, ordinal, name, content_type, kind, sha256, size, state) VALUES ${valuesOf(rows)}`;

const namesNoBlob = (row: AttachmentRow) => row[6] === null && row[8] !== 'stored';

const statementsFor = perConnection((sqlite: SqliteDatabase) => ({
  /** By row count: a full statement, or the last rows of a batch. */
  checked: new Map<number, ReturnType<SqliteDatabase['prepare']>>(),
  plain: new Map<number, ReturnType<SqliteDatabase['prepare']>>(),
  failing: sqlite.prepare('UPDATE evidence_blobs SET failing = 1 WHERE sha256 = ? AND failing = 0'),
}));

/** Writes the rows on SQLite, in the caller's transaction, and marks the blobs of failures. */
export function writeAttachmentsSqlite(sqlite: SqliteDatabase, rows: readonly AttachmentRow[], failing: ReadonlySet<string>): void {
  if (rows.length === 0) return;
  const s = statementsFor(sqlite);
  const plain = rows.filter(namesNoBlob);
  insertInStatements(sqlite, s.plain, plainInsertSql, plain);
  insertInStatements(sqlite, s.checked, checkedInsertSql, plain.length === rows.length ? [] : rows.filter((row) => !namesNoBlob(row)));
  for (const sha256 of failing) s.failing.run(sha256);
}

function insertInStatements(sqlite: SqliteDatabase, cache: Map<number, ReturnType<SqliteDatabase['prepare']>>, sql: (rows: number) => string, rows: readonly AttachmentRow[]): void {
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const count = Math.min(ROWS_PER_STATEMENT, rows.length - start);
    let insert = cache.get(count);
    if (!insert) cache.set(count, (insert = sqlite.prepare(sql(count))));
    const params = new Array<unknown>(count * COLUMNS);
    for (let r = 0; r < count; r++) {
      const row = rows[start + r]!;
      for (let c = 0; c < COLUMNS; c++) params[r * COLUMNS + c] = row[c];
    }
    insert.run(params);
  }
}

const INSERT_POSTGRES = `INSERT INTO attachments (result_id, retry, ordinal, name, content_type, kind, sha256, size, state)
  SELECT u.r, u.t, u.o, u.n, u.c, u.k, u.s, coalesce(u.z, (SELECT b.size FROM evidence_blobs b WHERE b.sha256 = u.s)),
    CASE WHEN u.st = 'stored' AND NOT EXISTS (SELECT 1 FROM evidence_blobs b WHERE b.sha256 = u.s) THEN 'not-stored' ELSE u.st END
  FROM unnest(CAST(@r AS bigint[]), CAST(@t AS bigint[]), CAST(@o AS bigint[]), CAST(@n AS text[]), CAST(@c AS text[]), CAST(@k AS text[]),
    CAST(@s AS text[]), CAST(@z AS bigint[]), CAST(@st AS text[])) AS u(r, t, o, n, c, k, s, z, st)`;

/** writeAttachmentsSqlite on PostgreSQL: one statement for the rows, one for the failures' blobs. */
export async function writeAttachmentsPostgres(sql: Sql, rows: readonly AttachmentRow[], failing: ReadonlySet<string>): Promise<void> {
  if (rows.length === 0) return;
  const column = <T>(i: number) => rows.map((row) => row[i] as T);
  await sql.run(INSERT_POSTGRES, {
    r: column(0),
    t: column(1),
    o: column(2),
    n: column<string>(3).map(postgresText),
    c: column<string>(4).map(postgresText),
    k: column(5),
    s: column(6),
    z: column(7),
    st: column(8),
  });
  // In hash order: two runs marking the same blobs never wait on each other in opposite orders.
  if (failing.size > 0) await sql.run('UPDATE evidence_blobs SET failing = 1 WHERE failing = 0 AND sha256 = ANY(CAST(@hashes AS text[]))', { hashes: [...failing].sort() });
}

/** The blobs of failures among these tests' stored evidence. */
export function failingBlobs(tests: readonly NormalisedTest[], into: Set<string>): void {
  for (const test of tests) {
    if (!isFailingEvidence(test)) continue;
    for (const attempt of test.attempts) for (const e of attempt.evidence ?? []) if (e?.sha256 && e.state === 'stored') into.add(e.sha256);
  }
}
