/**
 * Builds a benchmark database from the seeded generator: `runs` reports of 500 tests on four
 * browsers over 90 days (or the `shape` given), stored through the same path as `flakeboard
 * import`. Reused when a database built with the same options exists.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { generateHistory } from '../../server/demo/history.js';
import { ingestValue } from '../../server/ingest.js';
import { openStore } from '../../server/store/engine/open.js';

// Noon today (UTC): the windows of 7, 30 and 90 days all hold data whenever the bench runs.
export const BENCH_NOW = Math.floor(Date.now() / 86_400_000) * 86_400_000 + 43_200_000;

export async function buildDatabase(
  path: string,
  runs: number,
  shape: { days: number; tests: number } = { days: 90, tests: 500 },
): Promise<{ results: number; seconds: number; reused: boolean }> {
  const options = { seed: 21, runs, days: shape.days, tests: shape.tests, endDate: BENCH_NOW };
  const manifest = `${path}.json`;
  if (existsSync(path) && existsSync(manifest)) {
    const saved = JSON.parse(readFileSync(manifest, 'utf8')) as { options: unknown; results: number; seconds: number };
    if (JSON.stringify(saved.options) === JSON.stringify(options)) return { ...saved, reused: true };
  }
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  const store = openStore(path);
  const started = performance.now();
  let results = 0;
  for (const run of generateHistory(options)) {
    results += ingestValue(store, run.report, { fileName: run.fileName, approve: true }).tests;
    if (run.runIndex % 50 === 49 || shape.tests > 2000) process.stderr.write(`  stored ${run.runIndex + 1}/${runs} runs (${results} results)\n`);
  }
  store.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  store.sqlite.exec('ANALYZE');
  await store.close();
  const seconds = (performance.now() - started) / 1000;
  writeFileSync(manifest, JSON.stringify({ options, results, seconds }));
  return { results, seconds, reused: false };
}
