/**
 * bench/diagnosis: how fast the local engine answers (the detail dialog waits on it). A generated history
 * (BENCH_DIAGNOSIS_RUNS runs of 60 tests on four browsers, so each test's stored history is
 * longer than the engine reads: HISTORY_LIMIT caps it) in a real SQLite file; then a page of 50
 * failing tests asked of POST /api/ai-analysis one after the other, as the detail dialog asks
 * (50 rows of history each), three times. Prints the page's total and per-answer p50/p95/max.
 *
 *   npm run bench -- diagnosis
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { buildTestApp, signIn } from '../../fixtures/testing/app.js';
import { requestFromStore } from '../../fixtures/testing/ai.js';
import { generateHistory } from '../../server/demo/history.js';
import { ingestValue } from '../../server/ingest.js';
import { HISTORY_LIMIT } from '../../server/store/read/test-history.js';

const RUNS = Number(process.env.BENCH_DIAGNOSIS_RUNS ?? 200);
const PAGE = 50;

const pct = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function main(): Promise<void> {
  const t = await buildTestApp();
  try {
    const started = performance.now();
    for (const run of generateHistory({ seed: 14, runs: RUNS, tests: 60, days: 60 })) ingestValue(t.store, run.report, { fileName: run.fileName, approve: true });
    console.log(`history: ${RUNS} runs of 60 tests on 4 browsers imported in ${((performance.now() - started) / 1000).toFixed(1)} s (${join(t.target)})`);

    const pairs = await t.store.db
      .selectFrom('results')
      .innerJoin('tests', 'tests.id', 'results.test_id')
      .select(['tests.title', 'tests.file', 'results.browser'])
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('results.status', 'in', ['failed', 'timedOut'])
      .groupBy(['tests.title', 'tests.file', 'results.browser'])
      .orderBy('n', 'desc')
      .limit(PAGE)
      .execute();
    const rows = await t.store.db.selectFrom('results').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    console.log(`${pairs.length} failing tests asked; ${rows.n} stored results; the engine reads at most ${HISTORY_LIMIT} per test`);
    const requests = await Promise.all(pairs.map((p) => requestFromStore(t.store, p, p.browser, 50)));
    const who = await signIn(t.app, 'max');

    for (let round = 1; round <= 3; round++) {
      const times: number[] = [];
      const classes = new Map<string, number>();
      const pageStart = performance.now();
      // CPU time as well as wall time: on a shared machine the wall clock also counts waiting for a core.
      const cpuStart = process.cpuUsage();
      for (const request of requests) {
        const one = performance.now();
        const res = await t.app.inject({ method: 'POST', url: '/api/ai-analysis', headers: who.headers, payload: request as unknown as Record<string, unknown> });
        times.push(performance.now() - one);
        if (res.statusCode !== 200) throw new Error(`answered ${res.statusCode}: ${res.body}`);
        const cause = (res.json() as { causeClass: string }).causeClass;
        classes.set(cause, (classes.get(cause) ?? 0) + 1);
      }
      const total = performance.now() - pageStart;
      const cpu = process.cpuUsage(cpuStart);
      const sorted = [...times].sort((a, b) => a - b);
      console.log(`round ${round}: page of ${requests.length} in ${ms(total)} (CPU ${ms((cpu.user + cpu.system) / 1000)}); per answer p50 ${ms(pct(sorted, 0.5))}, p95 ${ms(pct(sorted, 0.95))}, max ${ms(sorted.at(-1)!)}`);
      if (round === 3) console.log(`classes answered: ${[...classes].map(([c, n]) => `${c} ${n}`).join(', ')}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    }
  } finally {
    await t.close();
  }
}

await main();
