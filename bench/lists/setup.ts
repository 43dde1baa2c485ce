/** The large-suite database and server shared by the list benchmarks (run.ts, ui.ts). */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateHistory } from '../../server/demo/history.js';
import { ingestValue } from '../../server/ingest.js';
import { API_TOKEN_PREFIX, hashToken, newToken } from '../../server/auth/tokens.js';
import { createApiToken } from '../../server/store/accounts/api-tokens.js';
import { openStore } from '../../server/store/engine/open.js';
import type { Store } from '../../server/store/engine/types.js';
import { createUser } from '../../server/store/accounts/users.js';

export const root = fileURLToPath(new URL('../..', import.meta.url));
const NOW = Math.floor(Date.now() / 86_400_000) * 86_400_000 + 43_200_000;
export const OPTIONS = { seed: 31, runs: 20, days: 20, tests: 12_500, endDate: NOW };

/** 12,500 specs × 4 browsers, 20 reports over 20 days; reused when built with the same options. */
export async function largeSuiteDatabase(): Promise<string> {
  const dataDir = join(root, 'bench/.data');
  mkdirSync(dataDir, { recursive: true });
  const path = process.env.BENCH_LISTS_DB ?? join(dataDir, 'lists-50k.db');
  process.stderr.write(`building or reusing ${path}\n`);
  const manifest = `${path}.json`;
  if (existsSync(path) && existsSync(manifest) && readFileSync(manifest, 'utf8') === JSON.stringify(OPTIONS)) return path;
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  const store = openStore(path);
  for (const run of generateHistory(OPTIONS)) {
    const started = performance.now();
    const { tests } = ingestValue(store, run.report, { fileName: run.fileName, approve: true });
    process.stderr.write(`  stored run ${run.runIndex + 1}/${OPTIONS.runs} (${tests} results) in ${Math.round(performance.now() - started)} ms\n`);
  }
  store.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  store.sqlite.exec('ANALYZE');
  await store.close();
  writeFileSync(manifest, JSON.stringify(OPTIONS));
  return path;
}

/** `serve` of this checkout's build, or of the build under BENCH_ROOT (a "before" to compare with). */
export async function startServer(path: string): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, [join(process.env.BENCH_ROOT ?? root, 'bin/flakeboard.js'), 'serve', '--port', '0', '--db', path], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  for (let i = 0; i < 600 && !/serving .* at (http:\/\/\S+)/.test(output); i++) await new Promise((r) => setTimeout(r, 100));
  const url = /serving .* at (http:\/\/\S+)/.exec(output)?.[1];
  if (!url) throw new Error(`serve did not start:\n${output}`);
  return { url: url.replace(/\/$/, ''), stop: () => child.kill('SIGTERM') };
}

/** An API token of the admin 'bench' (made on first use), for the benchmark's callers. */
export async function benchToken(store: Store, name: string): Promise<string> {
  const user = store.sqlite.prepare("SELECT id FROM users WHERE username = 'bench'").get() as { id: number } | undefined;
  const userId = user?.id ?? (await createUser(store, { username: 'bench', passwordHash: 'x', role: 'admin' })).id;
  const token = newToken(API_TOKEN_PREFIX);
  await createApiToken(store, { name, tokenHash: hashToken(token), userId, scopes: ['upload', 'read'] });
  return token;
}
