import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateHistory } from '../../demo/history.js';
import { makeTempDir } from '../../../fixtures/testing/temp.js';
import { ingestValue } from '../../ingest.js';
import { openStore } from '../engine/open.js';
import type { Store } from '../engine/types.js';
import { DAY_MS } from '../engine/rollup-shape.js';
import { deleteRun, reviewUploads } from './uploads.js';

let temp: ReturnType<typeof makeTempDir>;
let stores: Store[] = [];
beforeEach(() => {
  temp = makeTempDir('flakeboard-rollups-');
});
afterEach(async () => {
  for (const s of stores) await s.close();
  stores = [];
  temp.cleanup();
});

function newStore(name: string): Store {
  const store = openStore(join(temp.dir, `${name}.db`));
  stores.push(store);
  return store;
}

const history = () => [...generateHistory({ seed: 3, runs: 24, days: 6, tests: 24, browsers: ['chromium', 'webkit'], outageRuns: 1 })];

type Row = Record<string, number | string | null>;

function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
const rollup = (store: Store): Row[] => store.sqlite.prepare('SELECT * FROM daily_test_stats ORDER BY test_id, browser, day').all() as Row[];

/** The same figures computed the slow way, from every attempt, in JavaScript. */
function fromRawRows(store: Store): Row[] {
  const results = store.sqlite
    .prepare(`SELECT r.id, r.test_id, r.browser, r.started_at, r.status, r.passed_on_retry, r.duration_ms, r.expected_status, runs.outage
              FROM results r JOIN runs ON runs.id = r.run_id ORDER BY r.started_at, r.id`)
    .all() as Array<{ id: number; test_id: number; browser: string; started_at: number; status: string; passed_on_retry: number; duration_ms: number; expected_status: string; outage: number }>;
  const attempts = store.sqlite.prepare('SELECT result_id, retry, status FROM attempts ORDER BY result_id, retry').all() as Array<{ result_id: number; retry: number; status: string }>;
  const byResult = groupBy(attempts, (a) => a.result_id);
  const groups = groupBy(results, (r) => `${r.test_id}|${r.browser}|${Math.floor(r.started_at / DAY_MS)}`);
  const rows: Row[] = [];
  for (const [key, rs] of groups) {
    const [testId, browser, day] = key.split('|');
    const timed = rs.filter((r) => r.status !== 'skipped');
    const outcomes = rs
      .filter((r) => r.outage === 0)
      .flatMap((r) => (byResult.get(r.id) ?? []).map((a) => (a.status === 'skipped' || a.status === 'interrupted' ? null : a.status === r.expected_status ? 1 : 0)))
      .filter((o): o is 0 | 1 => o !== null);
    rows.push({
      test_id: Number(testId),
      browser: browser!,
      day: Number(day),
      runs: rs.length,
      passed: rs.filter((r) => r.status === 'passed').length,
      failed: rs.filter((r) => r.status === 'failed' || r.status === 'timedOut').length,
      skipped: rs.length - timed.length,
      passed_on_retry: rs.filter((r) => r.outage === 0 && r.passed_on_retry).length,
      duration_sum: timed.reduce((n, r) => n + r.duration_ms, 0),
      duration_max: timed.reduce((n, r) => Math.max(n, r.duration_ms), 0),
      timed_runs: timed.length,
      scored_runs: rs.filter((r) => r.outage === 0).length,
      scored_passed: rs.filter((r) => r.outage === 0 && r.status === 'passed').length,
      scored_failed: rs.filter((r) => r.outage === 0 && (r.status === 'failed' || r.status === 'timedOut')).length,
      attempts: outcomes.length,
      changes: outcomes.filter((o, i) => i > 0 && o !== outcomes[i - 1]).length,
      first_outcome: outcomes[0] ?? null,
      last_outcome: outcomes.at(-1) ?? null,
      last_run_at: Math.max(...rs.map((r) => r.started_at)),
    });
  }
  const order = (a: Row, b: Row) => Number(a.test_id) - Number(b.test_id) || String(a.browser).localeCompare(String(b.browser)) || Number(a.day) - Number(b.day);
  return rows.sort(order);
}

describe('daily_test_stats', () => {
  it('equals the figures computed from every attempt, and flags the outage run', () => {
    const store = newStore('a');
    for (const run of history()) ingestValue(store, run.report, { fileName: run.fileName, approve: true });
    const rows = rollup(store);
    expect(rows.length).toBeGreaterThan(50);
    expect(rows).toEqual(fromRawRows(store));
    expect(store.sqlite.prepare('SELECT count(*) AS n FROM runs WHERE outage = 1').get()).toEqual({ n: 1 });
    expect(rows.some((r) => Number(r.changes) > 0)).toBe(true);
  });

  it('is the same whatever order the reports arrive in (appended in order, rebuilt out of order)', () => {
    const runs = history();
    // A fixed interleaving: mostly in time order, with some runs arriving late.
    const late = runs.filter((_, i) => i % 5 === 2);
    const mixed = [...runs.filter((_, i) => i % 5 !== 2), ...late];
    const orders = { inOrder: runs, reversed: [...runs].reverse(), mixed };
    // Test ids differ between the stores: compare by test identity.
    const keyed = (store: Store, table: 'daily_test_stats' | 'daily_error_stats') =>
      (store.sqlite.prepare(`SELECT t.file, t.title_path, d.* FROM ${table} d JOIN tests t ON t.id = d.test_id ORDER BY t.file, t.title_path, d.browser, d.day${table === 'daily_error_stats' ? ', d.fingerprint' : ''}`).all() as Row[]).map(
        ({ test_id: _, ...rest }) => rest,
      );
    const stores = Object.entries(orders).map(([name, order]) => {
      const store = newStore(name);
      for (const run of order) ingestValue(store, run.report, { fileName: run.fileName });
      return store;
    });
    const [first, ...others] = stores;
    expect(keyed(first!, 'daily_error_stats').length).toBeGreaterThan(10);
    for (const store of others) {
      expect(keyed(store, 'daily_test_stats')).toEqual(keyed(first!, 'daily_test_stats'));
      expect(keyed(store, 'daily_error_stats')).toEqual(keyed(first!, 'daily_error_stats'));
      expect(rollup(store)).toEqual(fromRawRows(store));
    }
  });

  it('orders results that started at the same moment by how they were stored, so appending equals rebuilding', () => {
    // --repeat-each: two results of one test on one browser with the same start, one passing.
    const report = (startTime: string, statuses: Array<'passed' | 'failed'>) => ({
      config: { version: '1.50.0', projects: [{ name: 'chromium' }] },
      suites: [
        {
          title: 'a.spec.ts',
          file: 'a.spec.ts',
          specs: [
            {
              title: 'repeated',
              file: 'a.spec.ts',
              line: 1,
              column: 1,
              tests: statuses.map((status) => ({
                projectName: 'chromium',
                expectedStatus: 'passed',
                status: status === 'passed' ? 'expected' : 'unexpected',
                results: [{ status, retry: 0, duration: 10, startTime, ...(status === 'failed' ? { error: { message: 'Error: boom' } } : {}) }],
              })),
            },
          ],
        },
      ],
      errors: [],
    });
    const store = newStore('ties');
    ingestValue(store, report('2026-11-20T10:00:00.000Z', ['passed', 'failed']), { fileName: 'one.json' });
    ingestValue(store, report('2026-11-20T11:00:00.000Z', ['failed']), { fileName: 'two.json' });
    const rows = rollup(store);
    expect(rows).toEqual(fromRawRows(store));
    expect(rows[0]).toMatchObject({ attempts: 3, changes: 1, first_outcome: 1, last_outcome: 0 });
  });

  it('follows rejection and deletion of a run', () => {
    const store = newStore('b');
    const ids = history().map((run) => ingestValue(store, run.report, { fileName: run.fileName }).runId);
    const reviewer = Number(store.sqlite.prepare("INSERT INTO users (username, password_hash, role, created_at, updated_at) VALUES ('r', 'x', 'reviewer', 0, 0)").run().lastInsertRowid);
    reviewUploads(store, [{ id: ids[3]!, action: 'reject' }], { id: reviewer, notes: null });
    deleteRun(store, ids[10]!);
    expect(rollup(store)).toEqual(fromRawRows(store));
  });
});
