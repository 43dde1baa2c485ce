import { dialectFor, type DialectName } from '../engine/dialect.js';
import type { AnyStore } from '../engine/types.js';

export interface BranchRow {
  name: string;
  /** The latest run on it (epoch ms). */
  last_run_at: number;
}

// Runs that count in the figures only: a branch whose runs were all rejected has nothing to show.
// Made once per engine: SQLite's connection keeps prepared statements by their text.
const listSql = (dialect: DialectName) => {
  const r = dialectFor(dialect);
  return `SELECT git_branch AS name, max(started_at) AS last_run_at FROM runs
    WHERE git_branch IS NOT NULL AND is_duplicate = 0 AND status != 'rejected' AND (CAST(@search AS TEXT) IS NULL OR ${r.contains(r.asciiLower('git_branch'), '@search')})
    GROUP BY git_branch ORDER BY last_run_at DESC, ${r.bytes('git_branch')} LIMIT @limit`;
};
const LIST = { sqlite: listSql('sqlite'), postgres: listSql('postgres') };

/**
 * The branches runs were stored on, most recently run first, at most `limit` (the branch picker
 * asks for a few dozen and searches for the rest). One pass over the runs table: a run per
 * report, not per test, so it stays small next to the results.
 */
export async function listBranches(store: AnyStore, q: { search: string | null; limit: number }): Promise<BranchRow[]> {
  return store.sql.all<BranchRow>(LIST[store.dialect], { search: q.search, limit: q.limit });
}
