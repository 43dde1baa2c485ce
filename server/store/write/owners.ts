import type { OwnedTest, ReportOwners } from '../../../core/owners/test-owners.js';
import { postgresText } from '../engine/dialect.js';
import { perConnection } from '../engine/per-connection.js';
import type { Sql } from '../engine/sql.js';
import type { SqliteDatabase } from '../engine/types.js';
import { UNNEST_BATCH, UnnestWriter } from '../engine/unnest-writer.js';

/**
 * How a stored run changes its tests' owners: a test that declares owners (annotation or tag)
 * or that a CODEOWNERS file was read for gets exactly those; without a CODEOWNERS file the
 * CODEOWNERS owners stored before stay and only declared owners are replaced.
 */
function replacesAll(test: OwnedTest, owners: ReportOwners): boolean {
  return owners.codeowners || test.owners.some((o) => o.source !== 'codeowners');
}

const statementsOf = perConnection((sqlite: SqliteDatabase) => ({
  find: sqlite.prepare('SELECT id FROM tests WHERE file = ? AND title_path = ?'),
  clearAll: sqlite.prepare('DELETE FROM test_owners WHERE test_id = ?'),
  clearDeclared: sqlite.prepare("DELETE FROM test_owners WHERE test_id = ? AND source != 'codeowners'"),
  insert: sqlite.prepare('INSERT OR IGNORE INTO test_owners (test_id, owner, source) VALUES (?, ?, ?)'),
}));

/** Stores a run's owners on SQLite, inside the transaction that stores the run. */
export function writeOwnersSqlite(sqlite: SqliteDatabase, owners: ReportOwners): void {
  const s = statementsOf(sqlite);
  for (const test of owners.tests) {
    // A duplicate's new tests were rolled back with its results: nothing to own.
    const row = s.find.get(test.file, test.titlePath) as { id: number } | undefined;
    if (!row) continue;
    (replacesAll(test, owners) ? s.clearAll : s.clearDeclared).run(row.id);
    for (const o of test.owners) s.insert.run(row.id, o.owner, o.source);
  }
}

const FIND_TESTS = `SELECT t.id, t.file, t.title_path FROM tests t
  JOIN unnest(CAST(@files AS text[]), CAST(@paths AS text[])) AS k(file, title_path) ON t.file = k.file AND t.title_path = k.title_path`;
const CLEAR_ALL = 'DELETE FROM test_owners WHERE test_id = ANY(CAST(@ids AS bigint[]))';
const CLEAR_DECLARED = "DELETE FROM test_owners WHERE test_id = ANY(CAST(@ids AS bigint[])) AND source != 'codeowners'";

/** Stores a run's owners on PostgreSQL, in the run's transaction, in batches. */
export async function writeOwnersPostgres(sql: Sql, owners: ReportOwners): Promise<void> {
  const insert = new UnnestWriter(sql, 'test_owners', 'test_id, owner, source', ['bigint', 'text', 'text'], 'ON CONFLICT DO NOTHING');
  for (let start = 0; start < owners.tests.length; start += UNNEST_BATCH) {
    const batch = owners.tests.slice(start, start + UNNEST_BATCH);
    const found = await sql.all<{ id: number; file: string; title_path: string }>(FIND_TESTS, {
      files: batch.map((t) => postgresText(t.file)),
      paths: batch.map((t) => postgresText(t.titlePath)),
    });
    const ids = new Map(found.map((r) => [`${r.file}\u0000${r.title_path}`, Number(r.id)]));
    const all: number[] = [];
    const declared: number[] = [];
    const rows: unknown[][] = [];
    for (const test of batch) {
      const id = ids.get(`${postgresText(test.file)}\u0000${postgresText(test.titlePath)}`);
      if (id === undefined) continue;
      (replacesAll(test, owners) ? all : declared).push(id);
      for (const o of test.owners) rows.push([id, o.owner, o.source]);
    }
    if (all.length > 0) await sql.run(CLEAR_ALL, { ids: all });
    if (declared.length > 0) await sql.run(CLEAR_DECLARED, { ids: declared });
    await insert.writeAll(rows);
  }
}
