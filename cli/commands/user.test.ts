import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../server/auth/passwords.js';
import type { Store } from '../../server/store/engine/types.js';
import { createSession } from '../../server/store/accounts/sessions.js';
import { createUser } from '../../server/store/accounts/users.js';
import { BIN, cleanEnv, runCli } from '../../fixtures/testing/cli.js';
import { TEST_SCRYPT } from '../../fixtures/testing/app.js';
import { withStore } from '../../fixtures/testing/store.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';

let temp: ReturnType<typeof makeTempDir>;
let db: string;
beforeEach(() => {
  temp = makeTempDir('flakeboard-user-');
  db = join(temp.dir, 'f.db');
});
afterEach(() => temp.cleanup());

const env = () => cleanEnv({ FLAKEBOARD_SCRYPT_N: '1024' });

/** `flakeboard ARGS --db f.db`, with a password on standard input unless input is null. */
function cli(args: string[], input: string | null = 'password\n') {
  return runCli([...args, '--db', db], { cwd: temp.dir, env: env(), ...(input === null ? {} : { input }) });
}

async function addUser(name: string, role = 'member', password = 'password'): Promise<void> {
  const r = await cli(['user', 'add', name, '--role', role, '--password-stdin'], `${password}\n`);
  expect(r.stderr).not.toContain('flakeboard:');
  expect(r.exitCode).toBe(0);
}

const withDb = <T>(work: (store: Store) => Promise<T> | T): Promise<T> => withStore(db, work);

const row = <T>(sql: string, ...params: unknown[]) => withDb((s) => s.sqlite.prepare(sql).get(...params) as T);
const count = async (sql: string, ...params: unknown[]) => (await row<{ n: number }>(sql, ...params)).n;

async function addSession(username: string, name: string): Promise<void> {
  await withDb(async (store) => {
    const { id } = store.sqlite.prepare('SELECT id FROM users WHERE username = ?').get(username) as { id: number };
    await createSession(store, { tokenHash: `t-${name}`, sessionHash: `s-${name}`, userId: id, expiresAt: Date.now() + 3_600_000 });
  });
}

/** What five wrong passwords from `address` leave in the database (server/auth/lockout.ts). */
async function lockOut(username: string, address: string): Promise<void> {
  const now = Date.now();
  await withDb((s) =>
    s.sqlite.prepare('INSERT INTO login_failures (user_id, address, failures, last_failed_at, locked_until) SELECT id, ?, 5, ?, ? FROM users WHERE username = ?').run(address, now, now + 15 * 60_000, username),
  );
}

async function failure(args: string[], message: string, input?: string | null): Promise<void> {
  const r = await cli(args, input);
  expect(r.stderr.trim().split('\n').at(-1)).toBe(`flakeboard: ${message}`);
  expect(r.exitCode).toBe(1);
}

describe('flakeboard user add and list', () => {
  it('adds users from --password-stdin; list shows them in a table and as JSON', async () => {
    const added = await cli(['user', 'add', 'alice', '--role', 'admin', '--password-stdin']);
    expect(added.exitCode).toBe(0);
    expect(added.stdout).toBe('added alice (admin)');
    // The test's cheap scrypt cost is announced, never silent.
    expect(added.stderr).toContain('FLAKEBOARD_SCRYPT_N=1024 makes this password hash weaker');
    await addUser('bob');
    const json = await cli(['user', 'list', '--json'], null);
    expect(json.exitCode).toBe(0);
    const users = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(users).toEqual([
      { id: 1, username: 'alice', role: 'admin', locked: false, lockedAddresses: 0, lockedUntil: null, failedAttempts: 0, createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
      { id: 2, username: 'bob', role: 'member', locked: false, lockedAddresses: 0, lockedUntil: null, failedAttempts: 0, createdAt: expect.any(String) },
    ]);
    const table = await cli(['user', 'list'], null);
    const lines = table.stdout.split('\n');
    expect(lines[0]).toMatch(/^USERNAME\s+ROLE\s+LOCKED\s+FAILED ATTEMPTS\s+CREATED$/);
    expect(lines[1]).toMatch(/^alice\s+admin\s+no\s+0\s+\d{4}-\d\d-\d\d$/);
    expect(lines[2]).toMatch(/^bob\s+member\s+no\s+0\s+\d{4}-\d\d-\d\d$/);
  });

  it('stores an scrypt hash with its parameters that verifies the password', async () => {
    await addUser('alice');
    const { password_hash } = await row<{ password_hash: string }>('SELECT password_hash FROM users');
    expect(password_hash).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(password_hash).not.toContain('password$');
    expect(await verifyPassword('password', password_hash)).toBe(true);
    expect(await verifyPassword('password!', password_hash)).toBe(false);
  });

  it('refuses an existing user, whatever the case of the name', async () => {
    await addUser('alice');
    await failure(['user', 'add', 'alice', '--password-stdin'], 'a user named alice already exists');
    await failure(['user', 'add', 'ALICE', '--password-stdin'], 'a user named alice already exists');
    expect(await count('SELECT count(*) AS n FROM users')).toBe(1);
  });

  it('refuses a bad password, a bad role, a bad name, and a missing terminal; stores nothing', async () => {
    // Each its own process, all at once.
    await Promise.all([
      failure(['user', 'add', 'alice', '--password-stdin'], 'the password must be at least 8 characters', 'short\n'),
      failure(['user', 'add', 'alice', '--password-stdin'], 'the password must be at most 128 characters', `${'x'.repeat(129)}\n`),
      failure(['user', 'add', 'alice', '--role', 'boss', '--password-stdin'], 'the role must be one of admin, reviewer, member'),
      failure(['user', 'add', 'al ice', '--password-stdin'], 'the username must not contain spaces or control characters'),
      failure(['user', 'add', 'alice'], 'no terminal to ask for the password on: pipe it in with --password-stdin', null),
      failure(['user', 'add', 'alice'], 'no terminal to ask for the password on: pipe it in with --password-stdin', 'password\n'),
    ]);
    expect(await count('SELECT count(*) AS n FROM users')).toBe(0);
  });
});

describe('flakeboard user role, passwd, unlock, remove', () => {
  // The accounts these commands change, written through the store: `user add` has its own tests above.
  beforeEach(async () => {
    const passwordHash = await hashPassword('password', TEST_SCRYPT);
    await withDb(async (store) => {
      await createUser(store, { username: 'root', passwordHash, role: 'admin' });
      await createUser(store, { username: 'alice', passwordHash, role: 'member' });
    });
    await addSession('alice', 'a1');
    await addSession('alice', 'a2');
    await addSession('root', 'r1');
  });
  const sessionsOf = (u: string) => count('SELECT count(*) AS n FROM sessions JOIN users ON users.id = sessions.user_id WHERE username = ?', u);

  it('role: refuses a bad role, then changes it and ends that user’s sessions only', async () => {
    await failure(['user', 'role', 'alice', 'boss'], 'the role must be one of admin, reviewer, member');
    expect(await sessionsOf('alice')).toBe(2);
    const r = await cli(['user', 'role', 'alice', 'reviewer'], null);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('alice is now a reviewer; their sessions are ended');
    expect(await row('SELECT role FROM users WHERE username = ?', 'alice')).toEqual({ role: 'reviewer' });
    expect(await sessionsOf('alice')).toBe(0);
    expect(await sessionsOf('root')).toBe(1);
    expect((await cli(['user', 'role', 'alice', 'reviewer'], null)).stdout).toBe('alice is already a reviewer');
  });

  it('passwd: sets a new hash, ends the sessions, revokes the API tokens and unlocks the account', async () => {
    await lockOut('alice', '10.0.0.1');
    await withDb((s) => s.sqlite.prepare("INSERT INTO api_tokens (name, token_hash, user_id, created_at) SELECT 'ci', 'h', id, 0 FROM users WHERE username = 'alice'").run());
    const r = await cli(['user', 'passwd', 'alice', '--password-stdin'], 'new password\n');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('changed the password of alice; their sessions are ended and 1 API token is revoked');
    const alice = await row<{ password_hash: string }>('SELECT * FROM users WHERE username = ?', 'alice');
    expect(await verifyPassword('new password', alice.password_hash)).toBe(true);
    expect(await verifyPassword('password', alice.password_hash)).toBe(false);
    expect(await count('SELECT count(*) AS n FROM login_failures')).toBe(0);
    expect(await count('SELECT count(*) AS n FROM api_tokens')).toBe(0);
    expect(await sessionsOf('alice')).toBe(0);
    expect(await sessionsOf('root')).toBe(1);
    await failure(['user', 'passwd', 'alice', '--password-stdin'], 'the password must be at least 8 characters', 'short\n');
  });

  it('list shows the locks failed sign-ins set; unlock lifts them from every address', async () => {
    await lockOut('alice', '10.0.0.1');
    await lockOut('alice', '10.0.0.2');
    const listed = JSON.parse((await cli(['user', 'list', '--json'], null)).stdout)[0];
    expect(listed).toMatchObject({ username: 'alice', locked: true, lockedAddresses: 2, failedAttempts: 10 });
    expect(Date.parse(listed.lockedUntil) - Date.now()).toBeGreaterThan(10 * 60_000);
    expect((await cli(['user', 'list'], null)).stdout.split('\n')[1]).toMatch(/^alice\s+member\s+until \d{4}-\d\d-\d\d \d\d:\d\d UTC from 2 addresses\s+10\s+/);
    const r = await cli(['user', 'unlock', 'alice'], null);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('unlocked alice (locked from 2 addresses)');
    expect(await count('SELECT count(*) AS n FROM login_failures')).toBe(0);
    expect((await cli(['user', 'unlock', 'alice'], null)).stdout).toBe('alice was not locked; failed attempts reset to 0');
  });

  it('remove: the user goes with their sessions and API tokens', async () => {
    await withDb((s) => s.sqlite.prepare("INSERT INTO api_tokens (name, token_hash, user_id, created_at) SELECT 'ci', 'h', id, 0 FROM users WHERE username = 'alice'").run());
    const r = await cli(['user', 'remove', 'alice'], null);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('removed alice; their sessions and 1 API token went with them');
    expect(await count("SELECT count(*) AS n FROM users WHERE username = 'alice'")).toBe(0);
    expect(await count('SELECT count(*) AS n FROM sessions')).toBe(1);
    expect(await count('SELECT count(*) AS n FROM api_tokens')).toBe(0);
  });

  it('refuses an unknown user in every command', async () => {
    await Promise.all([
      failure(['user', 'passwd', 'nobody', '--password-stdin'], 'no user named nobody'),
      failure(['user', 'role', 'nobody', 'admin'], 'no user named nobody'),
      failure(['user', 'unlock', 'nobody'], 'no user named nobody'),
      failure(['user', 'remove', 'nobody'], 'no user named nobody'),
    ]);
  });

  it('never removes or demotes the last admin', async () => {
    await failure(['user', 'remove', 'root'], 'root is the last admin: add another admin first');
    await failure(['user', 'role', 'root', 'member'], 'root is the last admin: add another admin first');
    expect(await sessionsOf('root')).toBe(1);
    expect((await cli(['user', 'role', 'alice', 'admin'], null)).exitCode).toBe(0);
    expect((await cli(['user', 'role', 'root', 'member'], null)).exitCode).toBe(0);
    await failure(['user', 'remove', 'alice'], 'alice is the last admin: add another admin first');
    expect((await cli(['user', 'remove', 'root'], null)).exitCode).toBe(0);
  });
});

// A real pseudo-terminal through util-linux `script`: nothing typed may be echoed.
const hasScript = process.platform === 'linux' && spawnSync('script', ['--version']).status === 0;

describe.runIf(hasScript)('flakeboard user add on a terminal', () => {
  it('asks twice without echo and stores the password typed, Backspace applied', async () => {
    const command = [process.execPath, BIN, 'user', 'add', 'tty', '--db', db].map((a) => `'${a}'`).join(' ');
    const child = spawn('script', ['-qfec', command, '/dev/null'], { env: env(), stdio: ['pipe', 'pipe', 'pipe'] });
    let seen = '';
    const waitFor = (text: string, from: number) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no "${text}" in ${JSON.stringify(seen)}`)), 20_000);
        const check = () => {
          if (seen.indexOf(text, from) === -1) return;
          clearTimeout(timer);
          child.stdout.off('data', check);
          resolve();
        };
        child.stdout.on('data', check);
        check();
      });
    child.stdout.on('data', (d: Buffer) => (seen += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await waitFor('Password: ', 0);
    child.stdin.write('secretX\u007fY1\r');
    await waitFor('Repeat the password: ', 0);
    child.stdin.write('secretY1\r');
    expect(await exited).toBe(0);
    child.stdin.end();
    expect(seen).toContain('added tty (member)');
    expect(seen).not.toContain('secret');
    const { password_hash } = await row<{ password_hash: string }>("SELECT password_hash FROM users WHERE username = 'tty'");
    expect(await verifyPassword('secretY1', password_hash)).toBe(true);
  });
});
