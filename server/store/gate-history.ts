import { gateKey } from '../../core/gate/answer.js';
import type { BaseResult, GateTest } from '../../core/gate/types.js';
import type { Store } from './open.js';

/**
 * The base-branch results of the checked run's failing tests, newest first, from runs that
 * count (not rejected, not duplicates) since `since`; and how many base-branch runs the
 * window holds at all, so the gate can say when its history is too thin to judge.
 */
export async function gateHistories(store: Store, query: { tests: readonly GateTest[]; base: string; since: number }): Promise<{ histories: Map<string, BaseResult[]>; baseRuns: number }> {
  const histories = new Map<string, BaseResult[]>();
  const baseRuns = await store.db
    .selectFrom('runs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('git_branch', '=', query.base)
    .where('started_at', '>=', query.since)
    .where('is_duplicate', '=', 0)
    .where('status', '!=', 'rejected')
    .executeTakeFirstOrThrow();
  for (const test of query.tests) {
    const key = gateKey(test);
    if (histories.has(key)) continue;
    const rows = await store.db
      .selectFrom('tests')
      .innerJoin('results', 'results.test_id', 'tests.id')
      .innerJoin('runs', 'runs.id', 'results.run_id')
      .select(['runs.id as run_id', 'results.started_at', 'runs.git_commit', 'results.status', 'results.passed_on_retry', 'runs.outage'])
      .where('tests.file', '=', test.file)
      .where('tests.title_path', '=', JSON.stringify(test.titlePath))
      .where('results.browser', '=', test.browser)
      .where('runs.git_branch', '=', query.base)
      .where('runs.started_at', '>=', query.since)
      .where('runs.is_duplicate', '=', 0)
      .where('runs.status', '!=', 'rejected')
      .orderBy('results.started_at', 'desc')
      .orderBy('results.id', 'desc')
      .limit(200)
      .execute();
    histories.set(
      key,
      rows.map((r) => ({
        runId: r.run_id,
        startedAt: r.started_at,
        commit: r.git_commit,
        status: r.status === 'skipped' ? 'skipped' : r.status === 'passed' ? 'passed' : 'failed',
        passedOnRetry: r.passed_on_retry === 1,
        outageRun: r.outage === 1,
      })),
    );
  }
  return { histories, baseRuns: Number(baseRuns.n) };
}
