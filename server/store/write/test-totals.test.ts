import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateHistory } from '../../demo/history.js';
import { makeTempDir } from '../../../fixtures/testing/temp.js';
import { ingestValue } from '../../ingest.js';
import { MIGRATIONS } from '../engine/migrations.js';
import { preparePrune, pruneBatch } from './prune.js';
import { openStore } from '../engine/open.js';
import type { Store } from '../engine/types.js';
import { rebuildAllTestTotals } from './test-totals.js';
import { clearAllData, deleteRun, reviewUploads } from './uploads.js';

let temp: ReturnType<typeof makeTempDir>;
let stores: Store[] = [];
beforeEach(() => {
  temp = makeTempDir('flakeboard-totals-');
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

const history = () => [...generateHistory({ seed: 5, runs: 24, days: 6, tests: 24, browsers: ['chromium', 'webkit'], outageRuns: 1 })];

type Row = Record<string, number | string | null>;

// Compared by test identity: ids differ between stores filled in different orders.
const totals = (store: Store): Row[] =>
  (
    store.sqlite
      .prepare('SELECT t.file, t.title_path, x.* FROM test_totals x JOIN tests t ON t.id = x.test_id ORDER BY t.file, t.title_path, x.browser')
      .all() as Row[]
  ).map(({ test_id: _, ...rest }) => rest);

/** The same figures the slow way: every result and attempt of a test on a browser, in time order. */
function fromRawRows(store: Store): Row[] {
  const results = store.sqlite
    .prepare(
      `SELECT r.id, t.file, t.title_path, r.browser, r.started_at, r.status, r.passed_on_retry, r.duration_ms, r.expected_status, runs.outage
       FROM results r JOIN runs ON runs.id = r.run_id JOIN tests t ON t.id = r.test_id ORDER BY r.started_at, r.id`,
    )
    .all() as Array<{ id: number; file: string; title_path: string; browser: string; started_at: number; status: string; passed_on_retry: number; duration_ms: number; expected_status: string; outage: number }>;
  const attempts = store.sqlite.prepare('SELECT result_id, status FROM attempts ORDER BY result_id, retry').all() as Array<{ result_id: number; status: string }>;
  const byResult = new Map<number, string[]>();
  for (const a of attempts) byResult.set(a.result_id, [...(byResult.get(a.result_id) ?? []), a.status]);
  const keys = new Map<string, typeof results>();
  for (const r of results) {
    const key = JSON.stringify([r.file, r.title_path, r.browser]);
    keys.set(key, [...(keys.get(key) ?? []), r]);
  }
  const failed = (s: string) => s === 'failed' || s === 'timedOut';
  const rows = [...keys].map(([key, rs]) => {
    const [file, title_path, browser] = JSON.parse(key) as string[];
    const timed = rs.filter((r) => r.status !== 'skipped');
    const scored = rs.filter((r) => r.outage === 0);
    const outcomes = scored
      .flatMap((r) => (byResult.get(r.id) ?? []).map((s) => (s === 'skipped' || s === 'interrupted' ? null : s === r.expected_status ? 1 : 0)))
      .filter((o): o is 0 | 1 => o !== null);
    const failures = rs.filter((r) => failed(r.status));
    return {
      file: file!,
      title_path: title_path!,
      browser: browser!,
      runs: rs.length,
      passed: rs.filter((r) => r.status === 'passed').length,
      failed: failures.length,
      skipped: rs.length - timed.length,
      passed_on_retry: scored.filter((r) => r.passed_on_retry).length,
      scored_passed: scored.filter((r) => r.status === 'passed').length,
      scored_failed: scored.filter((r) => failed(r.status)).length,
      attempts: outcomes.length,
      changes: outcomes.filter((o, i) => i > 0 && o !== outcomes[i - 1]).length,
      duration_sum: timed.reduce((n, r) => n + r.duration_ms, 0),
      duration_max: timed.reduce((n, r) => Math.max(n, r.duration_ms), 0),
      timed_runs: timed.length,
      first_outcome: outcomes[0] ?? null,
      last_outcome: outcomes.at(-1) ?? null,
      last_run_at: Math.max(...rs.map((r) => r.started_at)),
      last_failed_at: failures.length > 0 ? Math.max(...failures.map((r) => r.started_at)) : null,
    };
  });
  return rows.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.title_path < b.title_path ? -1 : a.title_path > b.title_path ? 1 : a.browser < b.browser ? -1 : a.browser > b.browser ? 1 : 0));
}

/** Sums of floating-point durations may differ in the last bits by the order they were added. */
const rounded = (rows: Row[]) => rows.map((r) => ({ ...r, duration_sum: Math.round(Number(r.duration_sum) * 1000) / 1000 }));

function rebuilt(store: Store): Row[] {
  store.sqlite.transaction(() => rebuildAllTestTotals(store.sqlite))();
  return totals(store);
}

describe('test_totals', () => {
  it('equals the figures computed from every result and attempt, in any order of arrival', () => {
    const runs = history();
    const late = runs.filter((_, i) => i % 5 === 2);
    const orders = { inOrder: runs, reversed: [...runs].reverse(), mixed: [...runs.filter((_, i) => i % 5 !== 2), ...late] };
    for (const [name, order] of Object.entries(orders)) {
      const store = newStore(name);
      for (const run of order) ingestValue(store, run.report, { fileName: run.fileName });
      const rows = totals(store);
      expect(rows.length, name).toBe(48);
      expect(rows.some((r) => Number(r.changes) >= 2 && r.last_failed_at !== null), name).toBe(true);
      expect(rounded(rows), name).toEqual(rounded(fromRawRows(store)));
      expect(rows, name).toEqual(rebuilt(store));
    }
  });

  it('follows rejection and deletion of a run, and is emptied with everything else', () => {
    const store = newStore('b');
    const ids = history().map((run) => ingestValue(store, run.report, { fileName: run.fileName }).runId);
    const before = totals(store);
    const reviewer = Number(store.sqlite.prepare("INSERT INTO users (username, password_hash, role, created_at, updated_at) VALUES ('r', 'x', 'reviewer', 0, 0)").run().lastInsertRowid);
    reviewUploads(store, [{ id: ids[3]!, action: 'reject' }], { id: reviewer, notes: null });
    deleteRun(store, ids[23]!);
    const after = totals(store);
    expect(after).not.toEqual(before);
    expect(rounded(after)).toEqual(rounded(fromRawRows(store)));
    expect(after).toEqual(rebuilt(store));
    clearAllData(store);
    expect(totals(store)).toEqual([]);
  });

  // Rejecting, deleting, pruning or importing out of order moves the totals by the touched days
  // (moveTestTotalsByDays) instead of re-summing every day of the touched tests: any sequence
  // of those must leave exactly what a full re-sum gives, and what the raw rows say.
  it('moved by the touched days, equals a full re-sum after any imports, rejections, deletions and prunes', () => {
    const runs = [...generateHistory({ seed: 9, runs: 14, days: 5, tests: 10, browsers: ['chromium', 'webkit'], outageRuns: 1 })];
    const step = fc.oneof(
      fc.record({ kind: fc.constant('import' as const), run: fc.nat(runs.length - 1) }),
      fc.record({ kind: fc.constantFrom('reject' as const, 'delete' as const), pick: fc.nat(100) }),
      fc.record({ kind: fc.constant('prune' as const), day: fc.nat(5) }),
    );
    let n = 0;
    fc.assert(
      fc.property(fc.array(step, { minLength: 4, maxLength: 16 }), (steps) => {
        const store = newStore(`p${n++}`);
        const reviewer = Number(store.sqlite.prepare("INSERT INTO users (username, password_hash, role, created_at, updated_at) VALUES ('r', 'x', 'reviewer', 0, 0)").run().lastInsertRowid);
        preparePrune(store);
        const stored = new Set<number>();
        for (const s of steps) {
          if (s.kind === 'import') {
            const run = runs[s.run]!;
            const { runId, duplicate } = ingestValue(store, run.report, { fileName: run.fileName });
            if (!duplicate) stored.add(runId);
          } else if (s.kind === 'prune') {
            const first = store.sqlite.prepare('SELECT min(started_at) FROM results').pluck().get() as number | null;
            if (first !== null) pruneBatch(store, first + s.day * 86_400_000, 1_000_000);
            for (const id of [...stored]) if (!store.sqlite.prepare('SELECT 1 FROM runs WHERE id = ?').get(id)) stored.delete(id);
          } else if (stored.size > 0) {
            const id = [...stored][s.pick % stored.size]!;
            stored.delete(id);
            const pending = store.sqlite.prepare("SELECT 1 FROM runs WHERE id = ? AND status = 'pending'").get(id);
            if (s.kind === 'reject' && pending) reviewUploads(store, [{ id, action: 'reject' }], { id: reviewer, notes: null });
            else deleteRun(store, id);
          }
        }
        const moved = totals(store);
        expect(rounded(moved)).toEqual(rounded(rebuilt(store)));
        expect(rounded(moved)).toEqual(rounded(fromRawRows(store)));
      }),
      { numRuns: 25, seed: 11 },
    );
  });

  it('is filled by the migration on a database written before it', () => {
    const path = join(temp.dir, 'old.db');
    const store = openStore(path);
    for (const run of history().slice(0, 8)) ingestValue(store, run.report, { fileName: run.fileName });
    const expected = totals(store);
    // As an older flakeboard left it: no table, the schema just before the migration that adds it.
    const before = MIGRATIONS.find((m) => m.name === 'all-time test totals')!.version - 1;
    // Later migrations are undone too (they run again on open): 8's build columns, 9's shared
    // limits, 10's day index (which took the place of 3's index on day and 7's totals index),
    // 11's uploader column, 12's token scopes, 13's evidence, 14's webhooks, 15's audit trail,
    // 16's single sign-on, 17's test owners, 18's branch rollup, 19's month rollup, 20's week rollup, 21's branch periods, 22's kept answers (and 23's column of them), 24's branch totals.
    store.sqlite.exec(
      `DROP TABLE branch_test_totals; DROP TABLE kept_answers; DROP TABLE branch_week_stats; DROP TABLE branch_month_stats; DROP TABLE week_stats; DROP TABLE month_stats; DROP TABLE branch_day_stats; DROP TABLE branches; DROP TABLE attachments; DROP TABLE evidence_blobs; DROP TABLE webhook_deliveries; DROP TABLE webhooks; DROP TABLE audit_log; DROP TABLE oidc_flows;
       DROP INDEX users_oidc_identity; ALTER TABLE users DROP COLUMN oidc_issuer; ALTER TABLE users DROP COLUMN oidc_subject;
       DROP TABLE test_owners; DROP TABLE test_totals; ALTER TABLE runs DROP COLUMN build_id; ALTER TABLE runs DROP COLUMN build_url; ALTER TABLE runs DROP COLUMN uploaded_via; ALTER TABLE api_tokens DROP COLUMN scopes;
       DROP TABLE rate_limits; DROP TABLE unknown_login_failures; DROP INDEX daily_test_stats_by_day; CREATE INDEX daily_test_stats_day ON daily_test_stats(day);
       PRAGMA user_version = ${before};`,
    );
    store.sqlite.close();
    const reopened = openStore(path);
    stores.push(reopened);
    expect(totals(reopened)).toEqual(expected);
  });
});
