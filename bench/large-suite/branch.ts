/**
 * The branch filter's cost: CPU time of each answer computed cold in this process on
 * the large-suite history (50,000 tests, 1,000,000 results, one report a day for 20 days: 17 on
 * main, 3 on two feature branches), for every branch (the rollups), for main (85 % of the
 * results) and for one feature branch (2 reports). Run after `npm run bench -- large` has
 * built the database: `npm run bench -- branch`. Medians of BENCH_REPEAT (3); BENCH_BRANCH
 * names the feature branch.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { QUERIES } from '../../server/analytics/queries.js';
import { forgetFlakeEpisodes } from '../../server/analytics/flake-episodes.js';
import { forgetTrendRows } from '../../server/analytics/trend-rows.js';
import { openStore } from '../../server/store/engine/open.js';
import { LARGE_SUITE } from './scenarios.js';

const dbPath = join(fileURLToPath(new URL('../.data', import.meta.url)), LARGE_SUITE.file);
if (!existsSync(dbPath)) throw new Error(`${dbPath} is missing: run \`npm run bench -- large\` (or \`npm run bench -- large:build\`) first: it builds it`);
// The clock the history was built for, so the windows hold the same days whenever this runs.
const now = (JSON.parse(readFileSync(`${dbPath}.json`, 'utf8')) as { options: { endDate: number } }).options.endDate;
const repeat = Number(process.env.BENCH_REPEAT ?? 3);
const store = openStore(dbPath, { readonly: true });
const feature = process.env.BENCH_BRANCH ?? 'chore/upgrade-playwright';

async function cold(fn: () => unknown): Promise<{ ms: number; kb: number }> {
  const runs: Array<{ ms: number; kb: number }> = [];
  for (let i = 0; i < repeat; i++) {
    forgetTrendRows();
    forgetFlakeEpisodes(store);
    const started = process.cpuUsage();
    const kb = JSON.stringify(await fn()).length / 1024;
    const used = process.cpuUsage(started);
    runs.push({ ms: (used.user + used.system) / 1000, kb });
  }
  return runs.sort((a, b) => a.ms - b.ms)[Math.floor(runs.length / 2)]!;
}

const flakyPage = { now, page: 1, pageSize: 50, search: null, browser: null, severity: null, critical: false, trend: null, sort: 'pass_rate', order: 'asc' } as const;
const answers: Record<string, (branch: string | null) => unknown> = {
  'dashboard?days=7': (branch) => QUERIES.dashboard(store, { days: 7, now, branch }),
  'dashboard?days=30': (branch) => QUERIES.dashboard(store, { days: 30, now, branch }),
  'dashboard?days=0': (branch) => QUERIES.dashboard(store, { days: 0, now, branch }),
  'flaky-tests?days=0': (branch) => QUERIES.flakyTestsPage(store, { ...flakyPage, days: 0, branch }),
  'flaky-tests?days=7': (branch) => QUERIES.flakyTestsPage(store, { ...flakyPage, days: 7, branch }),
  'flaky-trends?period=7': (branch) => QUERIES.flakyTrends(store, { period: 7, now, page: 1, pageSize: 50, direction: null, file: null, test: null, branch }),
};

const rows = [];
for (const [name, answer] of Object.entries(answers)) {
  const all = await cold(() => answer(null));
  const main = await cold(() => answer('main'));
  const one = await cold(() => answer(feature));
  rows.push({ answer: name, 'all ms': Math.round(all.ms), 'main ms': Math.round(main.ms), [`${feature} ms`]: Math.round(one.ms), 'KB all/main': `${all.kb.toFixed(1)}/${main.kb.toFixed(1)}` });
  process.stderr.write(`${name}: all ${all.ms.toFixed(0)} ms, main ${main.ms.toFixed(0)} ms, ${feature} ${one.ms.toFixed(0)} ms\n`);
}
console.table(rows);
await store.close();
