import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../server/auth/passwords.js';
import { hashToken } from '../../server/auth/tokens.js';
import { cleanEnv, runCli } from '../../fixtures/testing/cli.js';
import { createTestTarget, type TestTarget } from '../../fixtures/testing/engines.js';
import { HAS_POSTGRES, POSTGRES_SKIP, queryRows } from '../../fixtures/testing/postgres.js';
import { ownReports } from '../../fixtures/testing/public-reports.js';
import { startServe } from '../../fixtures/testing/serve-process.js';

const env = cleanEnv({ FLAKEBOARD_SCRYPT_N: '1024' });

/**
 * The commands that open the database, through the built binary, on one fresh PostgreSQL
 * database: `--db postgres://…`, or FLAKEBOARD_DATABASE_URL in its place.
 */
function onPostgres(name: string, body: () => void): void {
  if (HAS_POSTGRES) describe(name, body);
  else describe.skip(`${name}: ${POSTGRES_SKIP}`, body);
}

onPostgres('the commands on PostgreSQL', () => {
  let target: TestTarget;
  let url: string;
  beforeAll(async () => {
    target = await createTestTarget('postgres');
    url = target.target;
  });
  afterAll(async () => {
    await target?.remove();
  });

  const cli = (args: string[], input?: string) => runCli([...args, '--db', url], { env, ...(input === undefined ? {} : { input }) });
  /** The same command with the URL in FLAKEBOARD_DATABASE_URL, as a team server's environment holds it. */
  const cliEnv = (args: string[], input?: string) => runCli(args, { env: { ...env, FLAKEBOARD_DATABASE_URL: url }, ...(input === undefined ? {} : { input }) });
  const rows = <T extends object>(text: string, values: unknown[] = []) => queryRows<T>(url, text, values);
  const ok = (r: { exitCode: number; stderr: string }) => {
    expect(r.stderr).not.toMatch(/^flakeboard/m);
    expect(r.exitCode).toBe(0);
  };

  it('user add, list, passwd, role and remove', async () => {
    ok(await cli(['user', 'add', 'Alice', '--role', 'admin', '--password-stdin'], 'first password\n'));
    ok(await cliEnv(['user', 'add', 'bob', '--password-stdin'], 'bob password\n'));
    // The name is taken whatever its case (PostgreSQL's case-insensitive collation, as SQLite's NOCASE).
    const taken = await cli(['user', 'add', 'ALICE', '--password-stdin'], 'x password\n');
    expect([taken.exitCode, taken.stderr.trim()]).toEqual([1, 'flakeboard: a user named Alice already exists']);

    const list = await cliEnv(['user', 'list']);
    ok(list);
    expect(list.stdout.split('\n')[0]).toBe('USERNAME  ROLE    LOCKED  FAILED ATTEMPTS  CREATED');
    expect(list.stdout).toMatch(/^Alice +admin +no +0 +\d{4}-\d\d-\d\d$/m);
    expect(list.stdout).toMatch(/^bob +member +no +0 +\d{4}-\d\d-\d\d$/m);

    ok(await cli(['user', 'passwd', 'bob', '--password-stdin'], 'new bob password\n'));
    const [bob] = await rows<{ password_hash: string }>("SELECT password_hash FROM users WHERE username = 'bob'");
    expect(await verifyPassword('new bob password', bob!.password_hash)).toBe(true);

    const role = await cliEnv(['user', 'role', 'bob', 'reviewer']);
    expect([role.exitCode, role.stdout.trim()]).toEqual([0, 'bob is now a reviewer; their sessions are ended']);
    const lastAdmin = await cli(['user', 'remove', 'alice']);
    expect([lastAdmin.exitCode, lastAdmin.stderr.trim()]).toEqual([1, 'flakeboard: Alice is the last admin: add another admin first']);
    const json = JSON.parse((await cli(['user', 'list', '--json'])).stdout) as { username: string; role: string }[];
    expect(json.map((u) => [u.username, u.role])).toEqual([
      ['Alice', 'admin'],
      ['bob', 'reviewer'],
    ]);
  });

  it('token create, list and revoke; only the hash is stored', async () => {
    const created = await cliEnv(['token', 'create', 'ci']);
    ok(created);
    const token = created.stdout.trim();
    expect(token).toMatch(/^fbt_[\w-]+$/);
    expect(await rows('SELECT name FROM api_tokens WHERE token_hash = $1', [hashToken(token)])).toEqual([{ name: 'ci' }]);
    ok(await cli(['token', 'create', 'nightly', '--user', 'bob', '--expires', '30d']));

    const list = JSON.parse((await cli(['token', 'list', '--json'])).stdout) as { name: string; user: string; expiresAt: string | null }[];
    expect(list.map((t) => [t.name, t.user, t.expiresAt === null])).toEqual([
      ['ci', 'Alice', true],
      ['nightly', 'bob', false],
    ]);
    const revoked = await cliEnv(['token', 'revoke', 'ci']);
    expect(revoked.exitCode).toBe(0);
    expect(revoked.stdout.trim()).toMatch(/^revoked token \d+ "ci" of Alice$/);
    expect((await rows<{ name: string }>('SELECT name FROM api_tokens')).map((t) => t.name)).toEqual(['nightly']);
    const again = await cli(['token', 'revoke', 'ci']);
    expect([again.exitCode, again.stderr.trim()]).toEqual([1, 'flakeboard: no token ci']);
  });

  it('user remove takes the user with their tokens', async () => {
    const removed = await cli(['user', 'remove', 'bob']);
    expect([removed.exitCode, removed.stdout.trim()]).toEqual([0, 'removed bob; their sessions and 1 API token went with them']);
    expect(await rows('SELECT username FROM users')).toEqual([{ username: 'Alice' }]);
  });

  it('doctor reports the PostgreSQL database, its schema and its rows', async () => {
    const r = await cliEnv(['doctor']);
    ok(r);
    expect(r.stdout).toMatch(/^✓ database: PostgreSQL \d+.* at postgres:\/\/.*\/fb_test_\w+$/m);
    expect(r.stdout).toMatch(/^✓ schema: version \d+, as this flakeboard writes$/m);
    expect(r.stdout).toMatch(/^✓ contents: .*rate_limits 0.*users 1, webhook_deliveries 0, webhooks 0, week_stats \d+$/m);
  });

  it('backup refuses PostgreSQL in one line that names pg_dump; prune --vacuum says what PostgreSQL does instead', async () => {
    const backup = await cliEnv(['backup', '/tmp/never-written.db']);
    expect(backup.exitCode).toBe(1);
    expect(backup.stderr.trim().split('\n')).toHaveLength(1);
    expect(backup.stderr).toContain('back up PostgreSQL (postgres://');
    expect(backup.stderr).toContain('pg_dump');
    const prune = await cli(['prune', '--older-than', '90d', '--vacuum', '--yes']);
    expect([prune.exitCode, prune.stderr.trim()]).toEqual([
      1,
      'flakeboard: --vacuum rewrites a SQLite file; on PostgreSQL, autovacuum makes the space of removed runs reusable by itself (VACUUM FULL, which gives it back to the disk, is for its operators)',
    ]);
  });

  it('serve: two servers on a database that has an admin create none, answer health, and a sign-in on one works on the other', async () => {
    // The database already has an admin (Alice): a server on it creates none.
    // A password in the URL (the test server trusts local connections, so any will do) is never shown.
    const withPassword = new URL(url);
    withPassword.password = 's3cret-pw';
    const first = await startServe(withPassword.toString());
    const second = await startServe(url, { env: { FLAKEBOARD_DATABASE_URL: url } });
    try {
      expect(first.output()).not.toContain('Created the first account');
      expect(first.output()).toMatch(/flakeboard is serving postgres:\/\/\w+:\*\*\*@\S+\/fb_test_\w+ at http:/);
      expect(first.output()).not.toContain('s3cret-pw');
      for (const s of [first, second]) expect(await (await fetch(`${s.url}/api/health`)).json()).toMatchObject({ status: 'ok' });
      const login = await fetch(`${first.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'alice', password: 'first password' }) });
      expect(login.status).toBe(200);
      const { token } = (await login.json()) as { token: string };
      const me = await fetch(`${second.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
      expect([me.status, await me.json()]).toEqual([200, { user: { id: expect.any(Number), username: 'Alice', role: 'admin' } }]);
    } finally {
      expect((await first.stop()).exitCode).toBe(0);
      expect((await second.stop()).exitCode).toBe(0);
    }
  });

  it('serve on an empty PostgreSQL database creates the first admin once, however many servers start', async () => {
    const empty = await createTestTarget('postgres');
    try {
      const servers = await Promise.all([startServe(empty.target), startServe(empty.target)]);
      try {
        const created = servers.filter((s) => s.output().includes('Created the first account'));
        expect(created).toHaveLength(1);
        const headers = await created[0]!.signIn();
        const other = servers.find((s) => s !== created[0])!;
        expect((await fetch(`${other.url}/api/auth/me`, { headers })).status).toBe(200);
      } finally {
        for (const s of servers) await s.stop();
      }
    } finally {
      await empty.remove();
    }
  });

  // Needs the import on PostgreSQL (branch writes) for the demo's runs: runs after the merge.
  it('serve --demo fills an empty PostgreSQL database once, and a second start adds nothing', async () => {
    const empty = await createTestTarget('postgres');
    try {
      const first = await startServe(empty.target, { args: ['--demo'] });
      let headers: Record<string, string>;
      try {
        expect(first.output()).toMatch(/--demo: stored 61 generated runs \(\d+ test results; 4 pending review, 1 duplicate\)\./);
        headers = await first.signIn();
      } finally {
        await first.stop();
      }
      const second = await startServe(empty.target, { args: ['--demo'] });
      try {
        expect(second.output()).toContain('--demo: the database already holds 61 runs; no demo history added.');
        const dashboard = await fetch(`${second.url}/api/dashboard?days=0`, { headers });
        expect(((await dashboard.json()) as { summary: [{ total_runs: number }] }).summary[0].total_runs).toBeGreaterThan(0);
      } finally {
        await second.stop();
      }
    } finally {
      await empty.remove();
    }
  });

  // Needs the quarantine store on PostgreSQL (branch reads1): runs after the merge.
  it('quarantine add, list and remove', async () => {
    const added = await cliEnv(['quarantine', 'add', 'checkout *', '--reason', 'flaky payment sandbox', '--owner', 'team-pay', '--expires', '14d', '--by', 'alice']);
    ok(added);
    expect(added.stdout).toMatch(/^quarantined entry (\d+): /);
    const id = /entry (\d+)/.exec(added.stdout)![1]!;
    const list = JSON.parse((await cli(['quarantine', 'list', '--json'])).stdout) as { id: number; title: string; owner: string; createdBy: string; state: string }[];
    expect(list).toEqual([expect.objectContaining({ id: Number(id), title: 'checkout *', owner: 'team-pay', createdBy: 'Alice', state: 'active' })]);
    const removed = await cli(['quarantine', 'remove', id]);
    expect([removed.exitCode, removed.stdout.trim()]).toEqual([0, `removed quarantine entry ${id}`]);
    expect((await cli(['quarantine', 'list'])).stdout.trim()).toBe('no quarantined tests: add one with `flakeboard quarantine add TITLE --reason WHY`');
    expect(JSON.parse((await cli(['quarantine', 'list', '--all', '--json'])).stdout)).toEqual([expect.objectContaining({ id: Number(id), state: 'removed' })]);
  });

  // Needs the import and gate on PostgreSQL (branches writes and reads1): runs after the merge.
  it('check answers from the PostgreSQL database', async () => {
    const report = ownReports()[0]!;
    ok(await cli(['import', report]));
    const r = await cli(['check', report, '--json']);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ verdict: expect.stringMatching(/^(pass|fail)$/) });
  });
});
