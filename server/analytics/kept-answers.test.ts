import { afterEach, expect, it, vi } from 'vitest';
import { smallReport } from '../../fixtures/testing/app.js';
import { createTestTarget, describeEachEngine, type Engine } from '../../fixtures/testing/engines.js';
import { ingestValue } from '../ingest.js';
import { openStore } from '../store/engine/open.js';
import type { AnyStore } from '../store/engine/types.js';
import { deleteRun } from '../store/write/uploads.js';
import { keepAnswer, KEPT_ASK_COUNTED_EVERY_MS, KEPT_ASKED_WITHIN_MS, KEPT_COMPUTED_AHEAD, KEPT_MAX_ANSWERS, KEPT_RECENT_MS } from '../store/write/kept-answers.js';
import { AnalyticsCache } from './cache.js';
import { QUERIES } from './queries.js';
import { createAnalyticsRunner, type AnalyticsRunner, type RunnerOptions } from './runner.js';
import { today } from './windows.js';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const DAY = today(NOW);
const DASHBOARD = { days: 7, now: NOW, limit: 5 };

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
  vi.restoreAllMocks();
});

async function freshStore(engine: Engine): Promise<AnyStore> {
  const target = await createTestTarget(engine, { migrated: true });
  const store = await target.open();
  cleanup.push(() => target.remove(), () => store.close());
  return store;
}

/** A server's runner on `store`: computing on this thread, so a spy on QUERIES sees every computation. */
function runner(store: AnyStore, options: RunnerOptions = {}): AnalyticsRunner {
  const r = createAnalyticsRunner(store, { worker: false, codeVersion: 'code-1', now: () => NOW, ...options });
  cleanup.push(() => r.close());
  return r;
}

const ingest = async (store: AnyStore, title: string) => {
  await ingestValue(store as never, smallReport(title, 'failed'), { fileName: `${title}.json`, approve: true });
};

interface KeptRow {
  key: string;
  version: string | null;
  json: string | null;
}
const keptRows = (store: AnyStore) => store.sql.all<KeptRow>('SELECT key, version, json FROM kept_answers ORDER BY key');

/** Answers are kept after they are sent: wait until `count` rows hold a version. */
async function keptCount(store: AnyStore, count: number): Promise<KeptRow[]> {
  for (let i = 0; i < 200; i++) {
    const rows = await keptRows(store);
    if (rows.filter((row) => row.version !== null).length >= count) return rows;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`fewer than ${count} kept answers: ${JSON.stringify(await keptRows(store))}`);
}

describeEachEngine('answers kept across restarts', (engine) => {
  it('a restarted server answers from the kept answer, and computes again for new data or other code', async () => {
    const store = await freshStore(engine);
    await ingest(store, 'one');
    const first = await runner(store).json(DAY, 'dashboard', DASHBOARD);
    const [row] = await keptCount(store, 1);
    expect(row!.json).toBe(first);

    // Marked, so an answer from the table cannot be mistaken for one computed again.
    await store.sql.run('UPDATE kept_answers SET json = @json', { json: '{"kept":true}' });
    const computed = vi.spyOn(QUERIES, 'dashboard');
    expect(await runner(store).json(DAY, 'dashboard', DASHBOARD)).toBe('{"kept":true}');
    expect(computed).not.toHaveBeenCalled();

    // Another build of the code never serves what this one kept.
    expect(JSON.parse(await runner(store, { codeVersion: 'code-2' }).json(DAY, 'dashboard', DASHBOARD))).toEqual(JSON.parse(first));
    expect(computed).toHaveBeenCalledTimes(1);

    // New data: computed again, and that answer kept in its place.
    await ingest(store, 'two');
    const after = await runner(store).json(DAY, 'dashboard', DASHBOARD);
    expect(JSON.parse(after).summary[0].total_runs).toBe(JSON.parse(first).summary[0].total_runs + 1);
    expect(computed).toHaveBeenCalledTimes(2);
    for (let i = 0; i < 200 && (await keptRows(store))[0]!.json !== after; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await keptRows(store)).map((r) => r.json)).toEqual([after]);
  });

  it('computes ahead, after the data changes, the answers asked for lately; forgets stale text and old asks', async () => {
    const store = await freshStore(engine);
    await ingest(store, 'one');
    const r = runner(store);
    // More distinct answers than are computed ahead: the least recently asked wait to be asked.
    const searches = Array.from({ length: KEPT_COMPUTED_AHEAD + 1 }, (_, i) => `search ${String(i).padStart(2, '0')}`);
    for (const search of searches) await r.json(DAY, 'flakyTestsPage', flakyPage(search));
    await keptCount(store, searches.length);
    expect(await r.computeAhead()).toBe(0);

    await ingest(store, 'two');
    const computed = vi.spyOn(QUERIES, 'flakyTestsPage');
    expect(await r.computeAhead()).toBe(KEPT_COMPUTED_AHEAD);
    expect(computed).toHaveBeenCalledTimes(KEPT_COMPUTED_AHEAD);
    const rows = await keptRows(store);
    expect(rows).toHaveLength(searches.length);
    const current = rows.filter((row) => row.version !== null);
    expect(current).toHaveLength(KEPT_COMPUTED_AHEAD);
    expect(new Set(current.map((row) => row.version)).size).toBe(1);
    // The one not computed ahead keeps no text of the data before.
    expect(rows.filter((row) => row.version === null).map((row) => row.json)).toEqual([null]);
    // Nothing changed since: nothing computed, nothing written.
    expect(await r.computeAhead()).toBe(0);
    expect(computed).toHaveBeenCalledTimes(KEPT_COMPUTED_AHEAD);

    // Those computed ahead are what the next server start answers.
    const restarted = runner(store);
    for (const row of current) {
      const search = JSON.parse(row.key.slice('flakyTestsPage'.length)).search as string;
      expect(await restarted.json(DAY, 'flakyTestsPage', flakyPage(search))).toBe(row.json);
    }
    expect(computed).toHaveBeenCalledTimes(KEPT_COMPUTED_AHEAD);

    // A week after anyone asked: forgotten, not computed ahead.
    const later = runner(store, { now: () => NOW + KEPT_ASKED_WITHIN_MS + 86_400_000 });
    expect(await later.computeAhead()).toBe(0);
    expect(await keptRows(store)).toEqual([]);
  });

  it('computes ahead first what the team keeps asking for, before one-off answers asked for after it; an answer not asked for in a day comes last', async () => {
    const store = await freshStore(engine);
    await ingest(store, 'one');
    let now = NOW;
    const r = runner(store, { now: () => now });
    const asksOf = async (key: string) => Number(await store.sql.value('SELECT asks FROM kept_answers WHERE key = @key', { key }));
    // The dashboard, opened in four spans of ten minutes (from memory after the first).
    await r.json(DAY, 'dashboard', DASHBOARD);
    await keptCount(store, 1);
    const dashboardKey = (await keptRows(store))[0]!.key;
    for (let span = 1; span < 4; span++) {
      now += KEPT_ASK_COUNTED_EVERY_MS;
      await r.json(DAY, 'dashboard', DASHBOARD);
      // Asked again within the span: not counted again.
      await r.json(DAY, 'dashboard', DASHBOARD);
      // Each note is written before the next span's (on PostgreSQL they could take different connections).
      for (let i = 0; i < 200 && (await asksOf(dashboardKey)) < span + 1; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(await asksOf(dashboardKey)).toBe(4);
    // Then as many one-off searches as are computed ahead, each asked for once, later.
    now += KEPT_ASK_COUNTED_EVERY_MS;
    const searches = Array.from({ length: KEPT_COMPUTED_AHEAD }, (_, i) => `search ${String(i).padStart(2, '0')}`);
    for (const search of searches) {
      now += 1;
      await r.json(DAY, 'flakyTestsPage', flakyPage(search));
    }
    await keptCount(store, searches.length + 1);

    await ingest(store, 'two');
    expect(await r.computeAhead()).toBe(KEPT_COMPUTED_AHEAD);
    const current = (await keptRows(store)).filter((row) => row.version !== null).map((row) => row.key);
    expect(current).toContain(dashboardKey);
    // Of the one-offs, the one asked for first waits to be asked.
    expect(current.filter((key) => key.startsWith('flakyTestsPage'))).toHaveLength(KEPT_COMPUTED_AHEAD - 1);
    expect(current.some((key) => key.includes('search 00'))).toBe(false);

    // A day later nobody has opened the dashboard, and the one-offs were asked for again: they come first.
    now += KEPT_RECENT_MS;
    for (const search of searches) await r.json(DAY, 'flakyTestsPage', flakyPage(search));
    await ingest(store, 'three');
    const askedTwice = () => store.sql.value<number>("SELECT count(*) FROM kept_answers WHERE name = 'flakyTestsPage' AND asks = 2");
    for (let i = 0; i < 200 && Number(await askedTwice()) < searches.length; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(Number(await askedTwice())).toBe(searches.length);
    expect(await r.computeAhead()).toBe(KEPT_COMPUTED_AHEAD);
    const next = (await keptRows(store)).filter((row) => row.version !== null).map((row) => row.key);
    expect(next).not.toContain(dashboardKey);
  });

  it('keeps an answer only if the data is still what it was computed from: one computed before a delete is not written after it', async () => {
    const store = await freshStore(engine);
    await ingest(store, 'secret-title');
    const cache = new AnalyticsCache(store);
    const before = await cache.versionFor(DAY);
    const current = { sql: cache.signatureSql, signature: before.slice(before.indexOf(':') + 1) };
    const query = { key: 'owners{}', name: 'owners', args: '{}' };
    const [run] = await store.sql.all<{ id: number }>('SELECT id FROM runs');
    await deleteRun(store, Number(run!.id));
    await keepAnswer(store, query, `code:${before}`, '{"title":"secret-title"}', NOW, current);
    expect(await keptRows(store)).toEqual([]);

    const after = await cache.versionFor(DAY);
    await keepAnswer(store, query, `code:${after}`, '{"owners":[]}', NOW, { ...current, signature: after.slice(after.indexOf(':') + 1) });
    expect((await keptRows(store)).map((row) => row.json)).toEqual(['{"owners":[]}']);
  });

  it('drops a kept query it cannot compute again, and computes the others', async () => {
    const store = await freshStore(engine);
    await ingest(store, 'one');
    const r = runner(store);
    await r.json(DAY, 'owners', {});
    await keptCount(store, 1);
    // As another version of the code might have left them: a query no longer kept, arguments
    // this one cannot read.
    await store.sql.run("INSERT INTO kept_answers (key, name, args, version, json, asked_at) VALUES ('gone{}', 'gone', '{}', NULL, NULL, @at), ('odd', 'dashboard', 'not json', NULL, NULL, @at)", { at: NOW });
    await ingest(store, 'two');
    expect(await r.computeAhead()).toBe(1);
    expect((await keptRows(store)).map((row) => [row.key, row.version !== null])).toEqual([['owners{}', true]]);
  });

  it('forgets the text of every kept answer when results are removed, whether or not a server is running', async () => {
    const store = await freshStore(engine);
    await ingest(store, 'secret-title');
    const r = runner(store);
    await r.json(DAY, 'dashboard', DASHBOARD);
    await r.json(DAY, 'owners', {});
    expect((await keptCount(store, 2)).some((row) => row.json!.includes('secret-title'))).toBe(true);
    const [run] = await store.sql.all<{ id: number }>('SELECT id FROM runs');
    expect(await deleteRun(store, Number(run!.id))).toBe(true);
    // The queries stay, to be computed ahead; none of their text does.
    expect((await keptRows(store)).map((row) => [row.version, row.json])).toEqual([
      [null, null],
      [null, null],
    ]);
  });

  it(`holds at most ${KEPT_MAX_ANSWERS} answers, however many distinct ones are asked for: the least asked for, then the least recently, go`, async () => {
    const store = await freshStore(engine);
    for (let i = 0; i < KEPT_MAX_ANSWERS; i++) {
      await store.sql.run("INSERT INTO kept_answers (key, name, args, version, json, asked_at) VALUES (@key, 'owners', '{}', 'v', '{}', @at)", { key: `k${i}`, at: NOW - 1000 + i });
    }
    // Every one asked for more often than the new answer will have been, and the oldest more
    // often still: the new one stays (or it would never be counted up), the oldest stays, and
    // the next oldest goes.
    await store.sql.run('UPDATE kept_answers SET asks = 2');
    await store.sql.run("UPDATE kept_answers SET asks = 5 WHERE key = 'k0'");
    await runner(store).json(DAY, 'owners', {});
    let rows = await keptRows(store);
    for (let i = 0; i < 200 && rows.some((row) => row.key === 'k1'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      rows = await keptRows(store);
    }
    expect(rows).toHaveLength(KEPT_MAX_ANSWERS);
    expect(rows.map((row) => row.key)).toContain('owners{}');
    expect(rows.map((row) => row.key)).toContain('k0');
    expect(rows.map((row) => row.key)).not.toContain('k1');
  });

  it('keeps only the costly screens, not a test\'s own rows or a CI gate', async () => {
    const store = await freshStore(engine);
    await ingest(store, 'one');
    const r = runner(store);
    await r.json(DAY, 'testDetails', { title: 'one', browser: 'chromium', file: null, page: 1, pageSize: 50 });
    await r.json(DAY, 'gate', { runId: 1, base: null, now: NOW } as never).catch(() => undefined);
    await r.json(DAY, 'owners', {});
    const rows = await keptCount(store, 1);
    expect(rows.map((row) => row.key)).toEqual(['owners{}']);
  });
});

function flakyPage(search: string) {
  return { days: 30, now: NOW, page: 1, pageSize: 50, search, browser: null, severity: null, critical: false, trend: null, sort: 'pass_rate' as const, order: 'asc' as const };
}

it('keeps nothing for a store in memory, and still answers on a file it cannot write', async () => {
  const memory = openStore(':memory:');
  cleanup.push(() => memory.close());
  await runner(memory, { codeVersion: undefined }).json(DAY, 'dashboard', DASHBOARD);
  expect(await keptRows(memory)).toEqual([]);

  const target = await createTestTarget('sqlite');
  cleanup.push(() => target.remove());
  const writable = await target.open();
  await ingest(writable, 'one');
  await writable.close();
  const readonly = openStore(target.target, { readonly: true });
  cleanup.push(() => readonly.close());
  const warnings: Array<{ message: string; error: string }> = [];
  const log = { warn: (fields: object, message: string) => warnings.push({ message, ...(fields as { error: string }) }) };
  const onReadonly = runner(readonly, { log });
  const answer = JSON.parse(await onReadonly.json(DAY, 'dashboard', DASHBOARD));
  expect(answer.summary[0].total_runs).toBe(1);
  await onReadonly.json(DAY, 'dashboard', { ...DASHBOARD, days: 30 });
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(await keptRows(readonly)).toEqual([]);
  // Said, with SQLite's reason, once for both answers: the log is not flooded at every answer.
  const keeps = warnings.filter((w) => w.message === 'kept answers: could not keep one; it is computed again when asked');
  expect(keeps).toHaveLength(1);
  expect(keeps[0]!.error).toMatch(/readonly/i);
});
