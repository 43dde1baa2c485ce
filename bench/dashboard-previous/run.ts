/**
 * bench/dashboard-previous: what the 'vs previous period' figures cost the dashboard answer.
 * A 60-day history of 3,000 tests × 4 browsers (12 runs, 144,000 results); for each window the
 * median of 5 cold dashboards (trend scan forgotten) and of 5 scans of the previous window alone
 * (the daily rollup, as the answer reads it).
 *
 *   npm run bench -- previous
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateHistory } from '../../server/demo/history.js';
import { dashboard } from '../../server/analytics/dashboard.js';
import { forgetFlakeEpisodes } from '../../server/analytics/flake-episodes.js';
import { forgetTrendRows } from '../../server/analytics/trend-rows.js';
import { lastDays } from '../../server/analytics/windows.js';
import { ingestValue } from '../../server/ingest.js';
import { openStore } from '../../server/store/engine/open.js';
import { scanWindow } from '../../server/store/read/window-scan.js';

const NOW = Date.parse('2026-11-20T18:00:00Z');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const time = async (work: () => Promise<unknown>) => {
  const started = performance.now();
  await work();
  return performance.now() - started;
};
const times = async (work: () => Promise<unknown>) => {
  const measured: number[] = [];
  for (let i = 0; i < 5; i++) measured.push(await time(work));
  return measured;
};

const dir = mkdtempSync(join(tmpdir(), 'flakeboard-bench-previous-'));
const store = openStore(join(dir, 'bench.db'));
try {
  for (const run of generateHistory({ seed: 5, runs: 12, days: 60, tests: 3_000, outageRuns: 1, endDate: NOW })) {
    ingestValue(store, run.report, { fileName: run.fileName, approve: true });
  }
  for (const days of [7, 30]) {
    const window = lastDays(days, NOW);
    const previous = { from: window.from - days, to: window.from - 1 };
    const answers = await times(() => (forgetTrendRows(), forgetFlakeEpisodes(store), dashboard(store, days, NOW)));
    const scans = await times(() => scanWindow(store, previous));
    const rows = (await scanWindow(store, previous)).length;
    process.stdout.write(`days=${days}: dashboard ${median(answers).toFixed(1)} ms (median of 5, cold), of which the previous window's scan ${median(scans).toFixed(1)} ms (${rows} test × browser rows)\n`);
  }
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
