/**
 * bench/reads-engines: the report, run, gate and branch answers (analytics/queries.ts), and main's
 * all-time dashboard and flaky list, on one
 * history in SQLite and in its PostgreSQL copy: each answer must be the same text on
 * both, and the median time of each (6 calls after one warm-up, one at a time, in process) is
 * printed side by side. The history: 150 runs × 500 tests × 4 browsers over 60 days (300,000
 * results), built once in bench/.data.
 *
 *   FLAKEBOARD_TEST_POSTGRES_URL=postgres://… npm run bench -- reads-engines
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GateTest } from '../../core/gate/types.js';
import { createTestDatabase } from '../../fixtures/testing/postgres.js';
import { QUERIES, type QueryName } from '../../server/analytics/queries.js';
import { copySqliteToPostgres } from '../../server/store/engine/copy-to-postgres.js';
import { openAnyStore } from '../../server/store/engine/open-any.js';
import { openStore } from '../../server/store/engine/open.js';
import type { AnyStore, PostgresStore } from '../../server/store/engine/types.js';
import { buildDatabase } from '../api/build-db.js';

if (!process.env.FLAKEBOARD_TEST_POSTGRES_URL) {
  console.error('set FLAKEBOARD_TEST_POSTGRES_URL to a PostgreSQL server (bash fixtures/testing/start-postgres.sh start DIR prints one)');
  process.exit(2);
}
const path = join(fileURLToPath(new URL('../.data', import.meta.url)), 'reads-300k.db');
process.stderr.write(`building or reusing ${path}\n`);
console.log(await buildDatabase(path, 150, { days: 60, tests: 500 }));

const sqlite = openStore(path, { readonly: true });
const database = await createTestDatabase();
const postgres = (await openAnyStore(database.url, { max: 4 })) as PostgresStore;
try {
  const started = performance.now();
  await copySqliteToPostgres(sqlite.sqlite, postgres.pool);
  await postgres.sql.run('ANALYZE');
  console.log(`copied to PostgreSQL in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const row = <T>(text: string, ...params: unknown[]) => sqlite.sqlite.prepare(text).get(...params) as T;
  const now = row<{ m: number }>('SELECT max(started_at) AS m FROM runs').m + 3_600_000;
  const test = row<{ title: string; file: string; browser: string }>(`SELECT t.title, t.file, r.browser FROM results r JOIN tests t ON t.id = r.test_id WHERE r.status = 'failed' LIMIT 1`);
  const run = row<{ id: number }>('SELECT max(id) AS id FROM runs').id;
  const failing = sqlite.sqlite
    .prepare(`SELECT DISTINCT t.title, t.title_path, t.file, r.project_name, r.browser FROM results r JOIN tests t ON t.id = r.test_id WHERE r.run_id = ? AND r.status = 'failed' LIMIT 20`)
    .all(run) as Array<{ title: string; title_path: string; file: string; project_name: string; browser: string }>;
  const tests: GateTest[] = failing.map((f) => ({ title: f.title, titlePath: JSON.parse(f.title_path) as string[], file: f.file, project: f.project_name, browser: f.browser, passedOnRetry: false }));

  const cases: Array<[string, QueryName, unknown]> = [
    ['testDetails page 2', 'testDetails', { ...test, page: 2, pageSize: 50 }],
    ['testDetails, any file', 'testDetails', { ...test, file: null, page: 1, pageSize: 50 }],
    ['dailyStats 30 days', 'dailyStats', { ...test, days: 30, now }],
    ['slowTests 7 days', 'slowTests', { days: 7, now, page: 1, pageSize: 50 }],
    ['slowTests all time, page 2', 'slowTests', { days: 0, now, page: 2, pageSize: 50 }],
    ['trendDays 30 days', 'trendDays', { days: 30, now }],
    ['errorPatterns 30 days', 'errorPatterns', { days: 30, now, page: 1, pageSize: 50 }],
    ['errorPatterns all time', 'errorPatterns', { days: 0, now, page: 1, pageSize: 50 }],
    ['gate, 20 failing tests', 'gate', { tests, counts: { tests: 500, failed: tests.length, flaky: 0, skipped: 0 }, base: null, days: 30, now }],
    ['runSummary', 'runSummary', { runId: run, resultsOf: run }],
    ['runResults by name, page 3', 'runResults', { runId: run, page: 3, pageSize: 50, sort: 'name', status: 'all' }],
    ['runResults failed by duration', 'runResults', { runId: run, page: 1, pageSize: 50, sort: 'duration', status: 'failed' }],
    ['runResults search', 'runResults', { runId: run, page: 1, pageSize: 50, sort: 'status', status: 'all', search: 'expect' }],
    ['branches', 'branches', { search: null, limit: 50 }],
    // One branch's all time: its all-time rollup (branch_test_totals) on both engines.
    ['dashboard all time, main', 'dashboard', { days: 0, now, branch: 'main' }],
    ['flaky list all time, main', 'flakyTestsPage', { days: 0, now, page: 1, pageSize: 50, search: null, browser: null, severity: null, critical: false, trend: null, sort: 'last_failure', order: 'desc', branch: 'main' }],
  ];
  const median = async (store: AnyStore, name: QueryName, args: unknown) => {
    const times: number[] = [];
    let answer = '';
    for (let i = 0; i < 7; i++) {
      const t = performance.now();
      answer = JSON.stringify(await (QUERIES[name] as (s: AnyStore, a: unknown) => unknown)(store, args));
      if (i > 0) times.push(performance.now() - t);
    }
    return { ms: times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!, answer };
  };
  const rows = [];
  let differ = 0;
  for (const [label, name, args] of cases) {
    const a = await median(sqlite, name, args);
    const b = await median(postgres, name, args);
    if (a.answer !== b.answer) differ++;
    rows.push({ answer: label, 'SQLite ms': +a.ms.toFixed(1), 'PostgreSQL ms': +b.ms.toFixed(1), same: a.answer === b.answer, KB: +(a.answer.length / 1024).toFixed(1) });
  }
  console.table(rows);
  if (differ > 0) process.exitCode = 1;
} finally {
  await postgres.close();
  await sqlite.close();
  await database.drop();
}
