import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { smallReport } from '../../fixtures/testing/app.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';
import { ingestValue } from '../ingest.js';
import { openStore } from '../store/engine/open.js';
import type { Store } from '../store/engine/types.js';
import { QUERIES } from './queries.js';
import { createAnalyticsRunner, queryKey, type AnalyticsRunner } from './runner.js';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const DAY = Math.floor(NOW / 86_400_000);
let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
  vi.restoreAllMocks();
});

function fileStore(): Store {
  const temp = makeTempDir('flakeboard-runner-');
  const store = openStore(`${temp.dir}/flakeboard.db`);
  cleanup.push(() => temp.cleanup(), () => store.close());
  return store;
}

function runner(store: Store, worker: boolean): AnalyticsRunner {
  const r = createAnalyticsRunner(store, { worker });
  cleanup.push(() => r.close());
  return r;
}

describe('the analytics runner', () => {
  it('computes in the worker thread, not on the server thread, and answers what the same query answers inline', async () => {
    const store = fileStore();
    ingestValue(store, smallReport('one', 'failed'), { fileName: 'one.json', approve: true });
    const inline = await QUERIES.dashboard(store, { days: 0, now: NOW });
    const onThisThread = vi.spyOn(QUERIES, 'dashboard');

    const answer = JSON.parse(await runner(store, true).json(DAY, 'dashboard', { days: 0, now: NOW })) as typeof inline;
    expect(answer).toEqual(inline);
    expect(answer.summary[0].total_failed).toBe(2);
    expect(onThisThread).not.toHaveBeenCalled();
  });

  it('shares one computation between concurrent callers and caches it until the data changes', async () => {
    const store = fileStore();
    const compute = vi.spyOn(QUERIES, 'dashboard');
    const r = runner(store, false);
    const ask = () => r.json(DAY, 'dashboard', { days: 0, now: NOW });

    const [a, b, c] = await Promise.all([ask(), ask(), ask()]);
    expect(compute).toHaveBeenCalledTimes(1);
    // One computation: the very same text, not three equal ones.
    expect(a).toBe(b);
    expect(b).toBe(c);
    await ask();
    expect(compute).toHaveBeenCalledTimes(1);

    ingestValue(store, smallReport('two'), { fileName: 'two.json', approve: true });
    expect(JSON.parse(await ask()).summary[0].total_runs).toBe(1);
    expect(compute).toHaveBeenCalledTimes(2);
  });

  it('sees writes made while it runs, and reports a failing query as an error without stopping', async () => {
    const store = fileStore();
    const r = runner(store, true);
    const runs = async () => JSON.parse(await r.json(DAY, 'dashboard', { days: 0, now: NOW })).summary[0].total_runs;
    expect(await runs()).toBe(0);
    ingestValue(store, smallReport('one'), { fileName: 'one.json', approve: true });
    expect(await runs()).toBe(1);

    await expect(r.json(DAY, 'nope' as 'dashboard', { days: 0, now: NOW })).rejects.toThrow(/analytics query failed/);
    ingestValue(store, smallReport('two'), { fileName: 'two.json', approve: true });
    expect(await runs()).toBe(2);
  });

  it('starts its worker ahead with ready(): it resolves once the store is open, and also when it cannot be opened', async () => {
    const store = fileStore();
    ingestValue(store, smallReport('one', 'failed'), { fileName: 'one.json', approve: true });
    const r = runner(store, true);
    await r.ready();
    expect(JSON.parse(await r.json(DAY, 'dashboard', { days: 0, now: NOW })).summary[0].total_failed).toBe(2);
    // Without a worker there is nothing to wait for.
    await runner(store, false).ready();

    // Asked again (serve asks once; nothing may hang on a second ask).
    await r.ready();

    // The file gone before the worker opens it: serve must still start, and the query say why
    // (the worker that failed stops; the query's own worker names the file).
    const gone = fileStore();
    rmSync(gone.path);
    const broken = runner(gone, true);
    await broken.ready();
    await expect(broken.json(DAY, 'dashboard', { days: 0, now: NOW })).rejects.toThrow(gone.path);
  });

  it('keys answers by query and arguments, not by the clock or extra URL parameters', () => {
    expect(queryKey('dashboard', { days: 7, now: NOW })).toBe(queryKey('dashboard', { days: 7, now: NOW + 5_000 }));
    expect(queryKey('dashboard', { days: 7, now: NOW })).not.toBe(queryKey('dashboard', { days: 30, now: NOW }));
    expect(queryKey('slowTests', { days: 7, now: NOW })).not.toBe(queryKey('errorPatterns', { days: 7, now: NOW }));
  });
});
