import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type ResultPromise } from 'execa';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../../fixtures/testing/cli.js';
import { startServe as startServeProcess, type ServeProcess } from '../../fixtures/testing/serve-process.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';

let temp: ReturnType<typeof makeTempDir>;
let child: ResultPromise | null = null;
beforeEach(() => {
  temp = makeTempDir('flakeboard-serve-');
});
afterEach(async () => {
  child?.kill('SIGKILL');
  await child?.catch(() => {});
  child = null;
  temp.cleanup();
});

/** Starts `flakeboard serve` on a free port over f.db in the temp folder. */
async function startServe(args: string[]): Promise<{ url: string; output: () => string }> {
  const serve = await startServeProcess(join(temp.dir, 'f.db'), { cwd: temp.dir, args });
  child = serve.child;
  return serve;
}

describe('flakeboard serve', () => {
  it('--demo: prints the first sign-in once, serves API and UI, and closes cleanly on SIGTERM', async () => {
    const { url, output } = await startServe(['--demo']);
    const password = /password: (\S+)/.exec(output())![1]!;
    expect(output()).toMatch(/--demo: stored 61 generated runs/);
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    const index = await fetch(`${url}/`);
    expect([index.status, index.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    const login = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password }) });
    const { token } = (await login.json()) as { token: string };
    const pending = (await (await fetch(`${url}/api/uploads/pending`, { headers: { authorization: `Bearer ${token}` } })).json()) as { count: number };
    expect(pending.count).toBe(4);
    const dashboard = async (at: string) => (await fetch(`${at}/api/dashboard?days=30`, { headers: { authorization: `Bearer ${token}` } })).text();
    expect(JSON.parse(await dashboard(url)).days).toBe(30);
    // Not a terminal: logs are JSON lines.
    expect(output()).toMatch(/^\{"level":30,.*"msg":"Server listening at/m);

    child!.kill('SIGTERM');
    const result = await child!;
    expect(result.exitCode).toBe(0);
    // A clean close checkpoints the WAL and removes it.
    expect(existsSync(join(temp.dir, 'f.db-wal'))).toBe(false);
    child = null;

    // The answer is kept under this build's digest; marked here, so the next start can be seen
    // to answer from it instead of computing it again.
    const db = new Database(join(temp.dir, 'f.db'));
    const kept = db.prepare('SELECT version FROM kept_answers WHERE name = ?').pluck().all('dashboard') as string[];
    expect(kept).toEqual([expect.stringMatching(/^[0-9a-f]{16}:\d+:/)]);
    db.prepare('UPDATE kept_answers SET json = ?').run('{"kept":"marked"}');
    db.close();

    // The second start keeps the admin and prints no password.
    const again = await startServe([]);
    expect(again.output()).not.toMatch(/password:/);
    expect(await dashboard(again.url)).toBe('{"kept":"marked"}');
  });

  it('refuses a bad --port', async () => {
    const { exitCode, stderr } = await runCli(['serve', '--port', 'abc'], { cwd: temp.dir });
    expect(exitCode).toBe(1);
    expect(stderr).toContain('--port must be a whole number from 0 to 65535, not "abc"');
  });
});

// One plain start on a new database, for both tests: neither writes to it.
describe('flakeboard serve on a new database', () => {
  let own: ReturnType<typeof makeTempDir>;
  let first: ServeProcess | undefined;
  beforeAll(async () => {
    own = makeTempDir('flakeboard-serve-new-');
    first = await startServeProcess(join(own.dir, 'f.db'), { cwd: own.dir });
  });
  afterAll(async () => {
    await first?.stop();
    own.cleanup();
  });

  it('records the first admin it creates in the audit trail, like any other account', async () => {
    expect(first!.output()).toContain('Created the first account');
    const audit = await runCli(['audit', '--json', '--action', 'user.add', '--db', join(own.dir, 'f.db')], { cwd: own.dir });
    expect(audit.exitCode).toBe(0);
    const entries = JSON.parse(audit.stdout) as Array<{ actor: { kind: string; name: string | null }; source: string; target: { type: string; label: string }; detail: unknown }>;
    expect(entries.map((e) => [e.actor.kind, e.actor.name, e.source.startsWith('serve on '), e.target.type, e.target.label, e.detail])).toEqual([['system', null, true, 'user', 'admin', { role: 'admin', firstAccount: true }]]);
  });

  it('says so when the port is taken', async () => {
    const port = new URL(first!.url).port;
    const { exitCode, stderr } = await runCli(['serve', '--port', port, '--db', join(own.dir, 'g.db')], { cwd: own.dir, env: cleanEnv({ FLAKEBOARD_SCRYPT_N: '1024' }) });
    expect(exitCode).toBe(1);
    expect(stderr).toContain(`flakeboard: port ${port} on 127.0.0.1 is already in use: stop the other server or pass --port`);
  });
});
