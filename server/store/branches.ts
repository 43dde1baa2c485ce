import type { Store } from './open.js';
import { perConnection } from './per-connection.js';

export interface BranchRow {
  name: string;
  /** The latest run on it (epoch ms). */
  last_run_at: number;
}

// Runs that count in the figures only: a branch whose runs were all rejected has nothing to show.
const prepare = (sqlite: Store['sqlite']) => ({
  list: sqlite.prepare(`SELECT git_branch AS name, max(started_at) AS last_run_at FROM runs
    WHERE git_branch IS NOT NULL AND is_duplicate = 0 AND status != 'rejected' AND (@search IS NULL OR instr(lower(git_branch), @search) > 0)
    GROUP BY git_branch ORDER BY last_run_at DESC, name LIMIT @limit`),
});
const statementsFor = perConnection(prepare);

/**
 * The branches runs were stored on, most recently run first, at most `limit` (the branch picker
 * asks for a few dozen and searches for the rest). One pass over the runs table: a run per
 * report, not per test, so it stays small next to the results.
 */
export function listBranches(store: Store, q: { search: string | null; limit: number }): BranchRow[] {
  return statementsFor(store.sqlite).list.all(q) as BranchRow[];
}
