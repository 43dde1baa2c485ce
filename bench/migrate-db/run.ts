/**
 * migrate-db throughput: a benchmark database (bench/api/build-db.ts: 100 reports of 500 tests
 * on four browsers, 200,000 results) copied into a fresh PostgreSQL database by the built
 * binary. Needs `npm run build` and FLAKEBOARD_TEST_POSTGRES_URL (docs/development.md, "Tests on PostgreSQL").
 * `npm run bench -- migrate-db`
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, HAS_POSTGRES, POSTGRES_SKIP } from '../../fixtures/testing/postgres.js';
import { runCli } from '../../fixtures/testing/cli.js';
import { buildDatabase } from '../api/build-db.js';

if (!HAS_POSTGRES) {
  console.log(POSTGRES_SKIP);
  process.exit(0);
}
const file = join(fileURLToPath(new URL('../.data', import.meta.url)), 'migrate-200k.db');
const built = await buildDatabase(file, 100, { days: 90, tests: 500 });
console.log(`source: ${built.results.toLocaleString('en-US')} results (${built.reused ? 'reused' : `built in ${built.seconds.toFixed(0)} s`})`);
const target = await createTestDatabase();
try {
  const started = performance.now();
  const r = await runCli(['migrate-db', '--from', file, '--to', target.url, '--json']);
  const seconds = (performance.now() - started) / 1000;
  if (r.exitCode !== 0) throw new Error(r.stderr);
  const summary = JSON.parse(r.stdout) as { rows: number; tables: Record<string, number> };
  console.log(`migrate-db: ${summary.rows.toLocaleString('en-US')} rows in ${seconds.toFixed(1)} s = ${Math.round(summary.rows / seconds).toLocaleString('en-US')} rows/s (results ${summary.tables.results?.toLocaleString('en-US')}, attempts ${summary.tables.attempts?.toLocaleString('en-US')})`);
} finally {
  await target.drop();
}
