/**
 * The large-suite benchmark's PostgreSQL side: the same histories, copied from the
 * SQLite files by `flakeboard migrate-db` (the built binary, timed: the copy's rows per second),
 * served by `flakeboard serve --db postgres://…`. The server is FLAKEBOARD_BENCH_POSTGRES_URL
 * or, without it, a throwaway cluster under bench/.data/pg (fixtures/testing/start-postgres.sh:
 * loopback, fsync off, PostgreSQL's other settings at their defaults), stopped at the end.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { withDatabase } from '../../fixtures/testing/postgres.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const script = join(root, 'fixtures/testing/start-postgres.sh');

export interface BenchPostgres {
  /** The server's URL (its maintenance database). */
  url: string;
  stop(): void;
}

export function startBenchPostgres(dataDir: string): BenchPostgres {
  const given = process.env.FLAKEBOARD_BENCH_POSTGRES_URL;
  if (given) return { url: given, stop() {} };
  const dir = join(dataDir, 'pg');
  if (existsSync(dir)) spawnSync('bash', [script, 'stop', dir], { stdio: 'inherit' });
  const url = execFileSync('bash', [script, 'start', dir], { encoding: 'utf8' }).trim();
  return { url, stop: () => void spawnSync('bash', [script, 'stop', dir], { stdio: 'inherit' }) };
}

async function admin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function runCount(url: string): Promise<number | null> {
  try {
    return await admin(url, async (c) => Number((await c.query('SELECT count(*) AS n FROM runs')).rows[0].n));
  } catch {
    return null;
  }
}

/**
 * The SQLite history at `file` in a PostgreSQL database of its own (fb_bench_<name>), copied by
 * the built binary unless a copy with the same runs is there already. Returns its URL and the copy's figures.
 */
export async function copyHistory(server: string, file: string, name: string, runs: number): Promise<{ url: string; seconds: number | null; rows: number | null }> {
  const database = `fb_bench_${name.replace(/[^a-z0-9]/gi, '_').toLowerCase()}`;
  const url = withDatabase(server, database);
  if ((await runCount(url)) === runs) return { url, seconds: null, rows: null };
  await admin(server, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${database}`);
  });
  process.stderr.write(`  copying ${file} into ${database} with flakeboard migrate-db\n`);
  const started = performance.now();
  const out = execFileSync(process.execPath, [join(root, 'bin/flakeboard.js'), 'migrate-db', '--from', file, '--to', url, '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const seconds = (performance.now() - started) / 1000;
  const { rows } = JSON.parse(out) as { rows: number };
  // Statistics for the planner, as ANALYZE after the SQLite build.
  await admin(url, (c) => c.query('ANALYZE'));
  return { url, seconds, rows };
}
