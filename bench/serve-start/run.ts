/**
 * What a `flakeboard serve` start costs, per thread: `npm run bench -- serve-start [checkout...]
 * [--n 10] [--demo]`. Each checkout (default: this one; each built first) starts the built binary
 * on a copy of one migrated database (`--demo`: with the demo month), taking turns, n times; each
 * start is read when it has printed its "serving … at" line and answered one /api/health: the
 * CPU (utime + stime) of each of its threads from /proc/PID/task/*\/stat. Then it signs in and
 * times the first /api/dashboard. Prints medians. Linux only (/proc). FLAKEBOARD_SCRYPT_N
 * passes through: the tests start servers at 1024.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const args = process.argv.slice(2);
const at = args.indexOf('--n');
const runs = at >= 0 ? Number(args[at + 1]) : 10;
const demo = args.includes('--demo');
const checkouts = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--n');
if (checkouts.length === 0) checkouts.push('.');
const TICKS = 100;
const work = mkdtempSync(join(tmpdir(), 'flakeboard-serve-start-'));

interface Db {
  path: string;
  /** A copy of the template: started without --demo. */
  copied: boolean;
}

function start(checkout: string, db: Db) {
  const child = spawn(process.execPath, [join(resolve(checkout), 'bin/flakeboard.js'), 'serve', '--port', '0', ...(demo && !db.copied ? ['--demo'] : [])], {
    env: { ...process.env, FLAKEBOARD_DB: db.path },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const serving = new Promise<string>((done, fail) => {
    child.stdout.on('data', (d: Buffer) => {
      text += String(d);
      const m = /serving .* at (http:\/\/\S+)/.exec(text);
      if (m) done(m[1]!);
    });
    child.stderr.on('data', (d: Buffer) => (text += String(d)));
    child.on('exit', () => fail(new Error(text)));
  });
  const stop = () =>
    new Promise<void>((done) => {
      child.kill('SIGTERM');
      child.on('exit', () => done());
    });
  return { child, serving, stop, output: () => text };
}

function threads(pid: number): Array<{ main: boolean; ms: number }> {
  return readdirSync(`/proc/${pid}/task`).flatMap((tid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return [{ main: tid === String(pid), ms: ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS }];
    } catch {
      return [];
    }
  });
}

// The template: a first start migrates the database, creates admin and prints the password.
const template: Db = { path: join(work, 'template.db'), copied: false };
const first = start(checkouts[0]!, template);
await first.serving;
await first.stop();
const password = /password: (\S+)/.exec(first.output())?.[1];
if (!password) throw new Error(`the first start printed no password:\n${first.output()}`);

interface Start {
  total: number;
  main: number;
  others: number[];
  health: number;
  dashboard: number;
}

async function once(checkout: string): Promise<Start> {
  const dir = mkdtempSync(join(work, 'run-'));
  const db: Db = { path: join(dir, 'f.db'), copied: true };
  copyFileSync(template.path, db.path);
  const server = start(checkout, db);
  const url = await server.serving;
  const h = performance.now();
  await (await fetch(new URL('api/health', url))).text();
  const health = performance.now() - h;
  const cpu = threads(server.child.pid!);
  const login = await fetch(new URL('api/auth/login', url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password }) });
  const { token } = (await login.json()) as { token: string };
  const d = performance.now();
  const answer = await fetch(new URL('api/dashboard', url), { headers: { authorization: `Bearer ${token}` } });
  await answer.text();
  const dashboard = performance.now() - d;
  if (!answer.ok) throw new Error(`/api/dashboard answered ${answer.status}`);
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
  return { total: cpu.reduce((sum, t) => sum + t.ms, 0), main: cpu.filter((t) => t.main).reduce((sum, t) => sum + t.ms, 0), others: cpu.filter((t) => !t.main).map((t) => t.ms).sort((a, b) => b - a), health, dashboard };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const results: Start[][] = checkouts.map(() => []);
for (let i = 0; i < runs; i++) for (const [k, checkout] of checkouts.entries()) results[k]!.push(await once(checkout));
for (const [k, checkout] of checkouts.entries()) {
  const r = results[k]!;
  const busiest = [0, 1, 2, 3].map((n) => median(r.map((x) => x.others[n] ?? 0)));
  console.log(
    `${checkout}: CPU per start ${median(r.map((x) => x.total))} ms (main thread ${median(r.map((x) => x.main))} ms; other threads, busiest first, ${busiest.join(', ')} ms); ` +
      `first /api/health ${median(r.map((x) => x.health)).toFixed(1)} ms, first /api/dashboard ${median(r.map((x) => x.dashboard)).toFixed(1)} ms; medians of ${runs}`,
  );
}
rmSync(work, { recursive: true, force: true });
