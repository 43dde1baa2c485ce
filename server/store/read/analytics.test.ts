import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateHistory } from '../../demo/history.js';
import { makeTempDir } from '../../../fixtures/testing/temp.js';
import { ingestValue } from '../../ingest.js';
import { openStore } from '../engine/open.js';
import type { Store } from '../engine/types.js';
import { AFFECTED_TESTS_LISTED, errorPatternRows } from './analytics.js';

// SQLite only: the plan is SQLite's (PostgreSQL's planner chooses on its statistics).
const NOW = Date.parse('2026-11-20T18:00:00Z');
const TODAY = Math.floor(NOW / 86_400_000);
const temp = makeTempDir('flakeboard-error-patterns-');
let store: Store;

beforeAll(() => {
  store = openStore(join(temp.dir, 'history.db'));
  for (const run of generateHistory({ seed: 5, runs: 10, days: 10, tests: 60, endDate: NOW })) ingestValue(store, run.report, { fileName: run.fileName, approve: true });
  ingestValue(store, oneErrorInManyTests(), { fileName: 'one-error.json', approve: true });
}, 120_000);

/**
 * One error met by more tests than a pattern lists, in two files: a title in both (one
 * affected test), titles whose byte order is not their alphabetical one ("Z" before "a").
 */
function oneErrorInManyTests() {
  const startTime = new Date(NOW - 3_600_000).toISOString();
  const titles = [...Array.from({ length: AFFECTED_TESTS_LISTED + 4 }, (_, i) => `${i % 2 ? 'a' : 'Z'} breaks ${String(i).padStart(2, '0')}`), 'in both files'];
  const specs = (file: string, names: string[]) =>
    names.map((title, i) => ({
      title,
      file,
      line: 3 + i,
      column: 5,
      tests: [{ projectName: 'chromium', expectedStatus: 'passed', status: 'unexpected', results: [{ status: 'failed', retry: 0, duration: 100, startTime, error: { message: 'Error: the shared failure' } }] }],
    }));
  const suites = [
    { title: 'one.spec.ts', file: 'one.spec.ts', specs: specs('one.spec.ts', titles) },
    { title: 'two.spec.ts', file: 'two.spec.ts', specs: specs('two.spec.ts', ['in both files']) },
  ];
  return {
    config: { version: '1.50.0', projects: [{ name: 'chromium' }] },
    suites,
    errors: [],
    stats: { startTime, duration: 5000, expected: 0, unexpected: titles.length + 1, flaky: 0, skipped: 0 },
  };
}
afterAll(async () => {
  await store.close();
  temp.cleanup();
});

describe('the error patterns of a window', () => {
  it('read the error rows of its days from the covering index alone, never a lookup of each row in the table', async () => {
    const range = { from: TODAY - 29, to: TODAY };
    const calls: Array<[string, unknown]> = [];
    const all = vi.spyOn(store.sql, 'all');
    const get = vi.spyOn(store.sql, 'get');
    try {
      const { rows, counts } = await errorPatternRows(store, range, { limit: 20, offset: 0 });
      expect(rows.length).toBeGreaterThan(0);
      expect(counts.failures).toBeGreaterThan(0);
      calls.push(...(all.mock.calls as Array<[string, unknown]>), ...(get.mock.calls as Array<[string, unknown]>));
    } finally {
      all.mockRestore();
      get.mockRestore();
    }
    // One statement: the page, its titles and the counts from one grouping of the window's rows.
    expect(calls).toHaveLength(1);
    for (const [text, params] of calls) {
      const plan = (store.sqlite.prepare(`EXPLAIN QUERY PLAN ${text}`).all(params ?? {}) as Array<{ detail: string }>).map((r) => r.detail);
      const errorRows = plan.filter((step) => /^(SEARCH|SCAN) [ex] /.test(step));
      expect(errorRows.length).toBeGreaterThan(0);
      for (const step of errorRows) expect(step).toContain('USING COVERING INDEX daily_error_stats_by_day');
    }
  });

  it('give each pattern of the page its distinct titles, counted, the first ones listed in byte order, as its error rows say', async () => {
    const range = { from: TODAY - 9, to: TODAY };
    const rows = await store.sql.all<{ fingerprint: string; title: string; browser: string; occurrences: number }>(
      'SELECT e.fingerprint, t.title, e.browser, e.occurrences FROM daily_error_stats e JOIN tests t ON t.id = e.test_id WHERE e.day BETWEEN @from AND @to',
      range,
    );
    const byPattern = new Map<string, { titles: Set<string>; browsers: Set<string>; frequency: number }>();
    for (const row of rows) {
      const pattern = byPattern.get(row.fingerprint) ?? { titles: new Set(), browsers: new Set(), frequency: 0 };
      pattern.titles.add(row.title);
      pattern.browsers.add(row.browser);
      pattern.frequency += Number(row.occurrences);
      byPattern.set(row.fingerprint, pattern);
    }
    const bytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
    // Two pages, so the second's titles come from its own patterns.
    const pageSize = Math.ceil(byPattern.size / 2);
    const got = [
      ...(await errorPatternRows(store, range, { limit: pageSize, offset: 0 })).rows,
      ...(await errorPatternRows(store, range, { limit: pageSize, offset: pageSize })).rows,
    ];
    expect(got.map((p) => p.fingerprint).sort()).toEqual([...byPattern.keys()].sort());
    for (const p of got) {
      const want = byPattern.get(p.fingerprint)!;
      expect({ count: Number(p.test_count), titles: JSON.parse(p.tests_json), browsers: p.browsers, frequency: Number(p.frequency) }).toEqual({
        count: want.titles.size,
        titles: [...want.titles].sort(bytes).slice(0, AFFECTED_TESTS_LISTED),
        browsers: [...want.browsers].sort(bytes).join(','),
        frequency: want.frequency,
      });
    }
    // The one error of many tests: counted once per title, listed up to the bound.
    expect(got.map((p) => Number(p.test_count))).toContain(AFFECTED_TESTS_LISTED + 5);
  });

  it('count the patterns, categories, failures and browsers of the window on every page, and past the last one', async () => {
    const range = { from: TODAY - 9, to: TODAY };
    const rows = await store.sql.all<{ fingerprint: string; category: string; browser: string; occurrences: number }>(
      'SELECT e.fingerprint, s.category, e.browser, e.occurrences FROM daily_error_stats e JOIN error_samples s ON s.fingerprint = e.fingerprint WHERE e.day BETWEEN @from AND @to',
      range,
    );
    const want = {
      total: new Set(rows.map((r) => r.fingerprint)).size,
      categories: new Set(rows.map((r) => r.category)).size,
      failures: rows.reduce((sum, r) => sum + Number(r.occurrences), 0),
      browsers: new Set(rows.map((r) => r.browser)).size,
    };
    expect(want.total).toBeGreaterThan(1);
    const first = await errorPatternRows(store, range, { limit: 1, offset: 0 });
    const past = await errorPatternRows(store, range, { limit: 20, offset: want.total });
    expect(first.rows).toHaveLength(1);
    expect(past.rows).toEqual([]);
    for (const counts of [first.counts, past.counts]) expect(Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, Number(v)]))).toEqual(want);
    // A window without errors: nothing counted.
    const empty = await errorPatternRows(store, { from: TODAY - 2000, to: TODAY - 1990 }, { limit: 20, offset: 0 });
    expect(empty).toEqual({ rows: [], counts: { total: 0, categories: 0, failures: 0, browsers: 0 } });
  });
});

