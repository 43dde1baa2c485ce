/** What the API benchmarks share: a bench token and a long-lived flaky test, and `flakeboard serve` started as a user would. */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashToken, newToken, API_TOKEN_PREFIX } from '../../server/auth/tokens.js';
import { createApiToken } from '../../server/store/accounts/api-tokens.js';
import { openAnyStore } from '../../server/store/engine/open-any.js';
import { createUser } from '../../server/store/accounts/users.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
// USER_HZ: 100 on Linux everywhere this runs.
const CLOCK_TICKS = 100;

/** `target`: a database file, or a postgres:// URL (the same history copied by migrate-db). */
export async function prepareToken(target: string): Promise<{ token: string; title: string; file: string; browser: string }> {
  const store = await openAnyStore(target);
  try {
    const users = await store.sql.get<{ id: number }>('SELECT id FROM users ORDER BY id LIMIT 1');
    const userId = users?.id ?? (await createUser(store, { username: 'bench', passwordHash: 'x', role: 'admin' })).id;
    const token = newToken(API_TOKEN_PREFIX);
    await createApiToken(store, { name: 'bench', tokenHash: hashToken(token), userId, scopes: ['upload', 'read'] });
    // A flaky test with a long history: the detail calls read the most rows for it.
    const test = await store.sql.get<{ title: string; file: string; browser: string }>(
      'SELECT t.title, t.file, d.browser FROM daily_test_stats d JOIN tests t ON t.id = d.test_id WHERE d.passed_on_retry > 0 GROUP BY t.id, t.title, t.file, d.browser ORDER BY sum(d.runs) DESC, t.id, d.browser LIMIT 1',
    );
    if (!test) throw new Error(`no flaky test in ${store.target}`);
    return { token, ...test };
  } finally {
    await store.close();
  }
}

async function forgetKeptAnswers(target: string): Promise<void> {
  const store = await openAnyStore(target);
  try {
    await store.sql.run('DELETE FROM kept_answers');
  } finally {
    await store.close();
  }
}

export interface Server {
  url: string;
  pid: number;
  /** Resident memory now and at its peak (VmHWM), in MB, from /proc. */
  memory(): { rssMb: number; peakMb: number };
  /**
   * CPU time the process has used (all its threads, user + system), in ms, from /proc: on a
   * shared machine this says what a call costs when wall times mostly say how busy the machine was.
   */
  cpuMs(): number;
  stop(): Promise<void>;
}

/**
 * `serve` on `dbPath`. Its kept answers (docs/operations.md#kept-answers) are forgotten first
 * unless `keptAnswers` says to keep them: a benchmark's first answer is a computed one unless it
 * measures the kept ones.
 */
export async function startServer(dbPath: string, env: Record<string, string> = {}, options: { keptAnswers?: boolean } = {}): Promise<Server> {
  if (!options.keptAnswers) await forgetKeptAnswers(dbPath);
  const child = spawn(process.execPath, [join(root, 'bin/flakeboard.js'), 'serve', '--port', '0', '--db', dbPath], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, FLAKEBOARD_SCRYPT_N: '1024', ...env } });
  const spawnedAt = performance.now();
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  for (let i = 0; i < 600 && !/serving .* at (http:\/\/\S+)/.test(output); i++) await new Promise((r) => setTimeout(r, 20));
  const url = /serving .* at (http:\/\/\S+)/.exec(output)?.[1];
  if (!url) throw new Error(`serve did not start:\n${output}`);
  if (process.env.BENCH_LOOP_DETAIL) process.stderr.write(`server ${child.pid} listening ${Math.round(performance.now() - spawnedAt)} ms after its start\n`);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url: url.replace(/\/$/, ''),
    pid: child.pid!,
    memory() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
      return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
    },
    cpuMs() {
      // Fields 14 and 15 (utime, stime) in clock ticks, after the command name in parentheses.
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
