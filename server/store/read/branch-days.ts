import { dialectFor, type DialectName } from '../engine/dialect.js';
import { STATS_COLUMNS } from '../write/rollups.js';

/**
 * The daily rollup of one branch. daily_test_stats sums every branch; branch_day_stats holds the
 * same figures per branch, kept with it in the transaction of every import, review, delete and
 * prune (rollups.ts), keyed (branch, test, browser, day): one branch's rows are one range of the
 * key, read in key order as the all-branch window is. The queries that read daily_test_stats
 * read that branch's rows instead (onBranch), so a branch's figures follow the same rules as
 * everyone's; their parameters name the branch as @branch. A branch never stored has no rows;
 * a run without a branch is on none (as `git_branch = @branch` never matches it). A window that
 * holds whole weeks or months reads them from the branch's period tables instead (window-split.ts
 * splitRows with `branch`), as every branch's window reads week_stats and month_stats.
 */
export const branchIdOf = (dialect: DialectName) => `(SELECT id FROM branches WHERE name = ${dialectFor(dialect).typed('@branch', 'TEXT')})`;
const rowsOf = (dialect: DialectName) => `(SELECT ${STATS_COLUMNS} FROM branch_day_stats WHERE branch_id = ${branchIdOf(dialect)})`;

/**
 * The same query over one branch's rows instead of every branch's: `daily_test_stats` becomes a
 * subquery, keeping the alias the query gives it (`daily_test_stats d`) or taking one
 * (PostgreSQL wants a subquery in FROM named).
 */
export const onBranch = (sql: string, dialect: DialectName = 'sqlite'): string =>
  sql.replace(/\bdaily_test_stats\b( [a-z]\b)?/g, (_, alias: string | undefined) => `${rowsOf(dialect)}${alias ?? ' branch_days'}`);
