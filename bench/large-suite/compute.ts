/**
 * The CPU cost of computing each answer, in this process, on the benchmark histories: the
 * bounded dashboard and trend list against what they were before they were bounded (every flaky test,
 * every trend record, a LAG window per figure; flaky.ts still has those functions), in the same
 * run, so the ratio holds on a busy machine. Run after `npm run bench -- large` has built the
 * databases: `npm run bench -- large:compute [large|small|5m]`; BENCH_BEFORE=0
 * measures the bounded answers alone (the unbounded ones take minutes at 5M).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dashboard, FLAKY_TREND_PERIOD } from '../../server/analytics/dashboard.js';
import { flakyTests, flakyTrends } from '../../server/analytics/flaky.js';
import { slowTests, trendDays } from '../../server/analytics/reports.js';
import { trendList } from '../../server/analytics/trend-list.js';
import { forgetFlakeEpisodes } from '../../server/analytics/flake-episodes.js';
import { forgetTrendRows } from '../../server/analytics/trend-rows.js';
import { lastDays, today } from '../../server/analytics/windows.js';
import { browserTotals, recentRuns, windowSummary } from '../../server/store/read/analytics.js';
import { openStore } from '../../server/store/engine/open.js';
import type { Store } from '../../server/store/engine/types.js';
import { BENCH_NOW } from '../api/build-db.js';
import { LARGE_SUITE, LARGE_SUITE_5M, SMALL_SUITE } from './scenarios.js';

const data = fileURLToPath(new URL('../.data', import.meta.url));

/** Cold: nothing kept from an earlier answer. */
async function cpu(store: Store, fn: () => unknown): Promise<{ ms: number; bytes: number }> {
  forgetTrendRows();
  forgetFlakeEpisodes(store);
  const started = process.cpuUsage();
  const bytes = JSON.stringify(await fn()).length;
  const used = process.cpuUsage(started);
  return { ms: (used.user + used.system) / 1000, bytes };
}

/** The dashboard as it was computed before: every flaky test and every trend record. */
async function unboundedDashboard(store: Store, days: number, now: number) {
  const range = lastDays(days, now);
  return {
    summary: [await windowSummary(store, range)],
    browserComparison: await browserTotals(store, range),
    flakyTests: await flakyTests(store, range),
    recentRuns: await recentRuns(store, range, 10),
    slowTests: await slowTests(store, range, 10),
    flakyTrends: await flakyTrends(store, FLAKY_TREND_PERIOD, today(now)),
  };
}

const now = BENCH_NOW;
const page = { period: FLAKY_TREND_PERIOD, now, page: 1, pageSize: 50, direction: null, file: null, test: null };
const named = { large: LARGE_SUITE, small: SMALL_SUITE, '5m': LARGE_SUITE_5M } as const;
const asked = process.argv[2] as keyof typeof named | undefined;
const withBefore = process.env.BENCH_BEFORE !== '0';
for (const scenario of asked ? [named[asked]] : Object.values(named)) {
  const path = join(data, scenario.file);
  if (!existsSync(path)) continue;
  const store = openStore(path, { readonly: true });
  const rows: Array<Record<string, string | number>> = [];
  const compare = async (label: string, before: () => unknown, after: () => unknown) => {
    const b = withBefore ? await cpu(store, before) : { ms: Number.NaN, bytes: Number.NaN };
    const a = await cpu(store, after);
    rows.push({ answer: label, 'before CPU ms': Math.round(b.ms), 'before KB': Math.round(b.bytes / 1024), 'after CPU ms': Math.round(a.ms), 'after KB': +(a.bytes / 1024).toFixed(1), ratio: +(b.ms / a.ms).toFixed(1) });
  };
  for (const days of [7, 30, 90, 0]) await compare(`dashboard?days=${days}`, () => unboundedDashboard(store, days, now), () => dashboard(store, days, now));
  await compare('flaky-trends?period=7', () => flakyTrends(store, FLAKY_TREND_PERIOD, today(now)), () => trendList(store, { ...page, period: FLAKY_TREND_PERIOD + 0 }));
  const t = await cpu(store, () => trendDays(store, lastDays(30, now)));
  rows.push({ answer: 'trends (30 days)', 'after CPU ms': Math.round(t.ms), 'after KB': +(t.bytes / 1024).toFixed(1) });
  console.log(`\n${scenario.label}`);
  console.table(rows);
  await store.close();
}
