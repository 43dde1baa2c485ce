/**
 * What keeping a big history costs besides reading it: the database's size, one more report
 * imported into it and a prune of its oldest month, each through the built binary as an operator
 * would run them. On SQLite both run on a copy of the file, so the history is reused next time;
 * on PostgreSQL on the benchmark's copy, which copyHistory makes again when its runs differ.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { generateHistory } from '../../server/demo/history.js';
import { BENCH_NOW } from '../api/build-db.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface Upkeep {
  databaseMb: number;
  importResults: number;
  importSeconds: number;
  pruneOlderThan: string;
  prunedRuns: number;
  pruneSeconds: number;
}

function flakeboard(args: string[]): { seconds: number; out: unknown } {
  const started = performance.now();
  const out = execFileSync(process.execPath, [join(root, 'bin/flakeboard.js'), ...args, '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 2 ** 20 });
  return { seconds: (performance.now() - started) / 1000, out: JSON.parse(out) as unknown };
}

async function postgresBytes(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query('SELECT pg_database_size(current_database()) AS n')).rows[0].n);
  } finally {
    await client.end();
  }
}

/** `target`: the history's SQLite file, or its PostgreSQL copy's URL; `tests`: specs per report, as the history's. */
export async function measureUpkeep(dataDir: string, target: string, tests: number, pruneOlderThan = '335d'): Promise<Upkeep> {
  const postgres = target.startsWith('postgres');
  const databaseMb = (postgres ? await postgresBytes(target) : statSync(target).size) / 2 ** 20;
  // The next day's report: another seed, so it is not taken for a copy of a stored one.
  const report = join(dataDir, `next-report-${tests}.json`);
  if (!existsSync(report)) {
    const [run] = generateHistory({ seed: 99, runs: 1, days: 1, tests, endDate: BENCH_NOW + 3_600_000 });
    writeFileSync(report, JSON.stringify(run!.report));
  }
  let db = target;
  if (!postgres) {
    db = `${target}.upkeep`;
    for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
    copyFileSync(target, db);
  }
  try {
    const imported = flakeboard(['import', report, '--db', db, '--approve', '--branch', 'main']);
    const importResults = (imported.out as { tests: number }[]).reduce((sum, run) => sum + run.tests, 0);
    const pruned = flakeboard(['prune', '--older-than', pruneOlderThan, '--yes', '--db', db]);
    const prunedRuns = (pruned.out as { runs?: number }).runs ?? 0;
    return { databaseMb, importResults, importSeconds: imported.seconds, pruneOlderThan, prunedRuns, pruneSeconds: pruned.seconds };
  } finally {
    if (!postgres) for (const suffix of ['', '-wal', '-shm', '-evidence']) rmSync(db + suffix, { force: true, recursive: true });
  }
}
