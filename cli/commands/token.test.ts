import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/auth/passwords.js';
import type { Store } from '../../server/store/engine/types.js';
import { createUser } from '../../server/store/accounts/users.js';
import { createApiToken } from '../../server/store/accounts/api-tokens.js';
import { API_TOKEN_PREFIX, hashToken, newToken } from '../../server/auth/tokens.js';
import { cleanEnv, runCli } from '../../fixtures/testing/cli.js';
import { withStore } from '../../fixtures/testing/store.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';

let temp: ReturnType<typeof makeTempDir>;
let db: string;
beforeEach(async () => {
  temp = makeTempDir('flakeboard-token-');
  db = join(temp.dir, 'f.db');
  const passwordHash = await hashPassword('password', { N: 1024, r: 8, p: 1 });
  await withDb(async (store) => {
    await createUser(store, { username: 'root', passwordHash, role: 'admin' });
    await createUser(store, { username: 'ci-bot', passwordHash, role: 'member' });
    await createUser(store, { username: 'zoe', passwordHash, role: 'admin' });
  });
});
afterEach(() => temp.cleanup());

function cli(args: string[]) {
  return runCli([...args, '--db', db], { cwd: temp.dir, env: cleanEnv({ FLAKEBOARD_SCRYPT_N: '1024' }) });
}

const withDb = <T>(work: (store: Store) => Promise<T> | T): Promise<T> => withStore(db, work);

const all = <T>(sql: string) => withDb((s) => s.sqlite.prepare(sql).all() as T[]);

async function create(name: string, ...more: string[]): Promise<string> {
  const r = await cli(['token', 'create', name, ...more]);
  expect(r.stderr).not.toContain('flakeboard:');
  expect(r.exitCode).toBe(0);
  return r.stdout.split('\n').at(-1)!;
}

/** A token of `userId` (root by default) written through the store, for the tests of list and revoke. */
async function stored(name: string, userId = 1): Promise<string> {
  const token = newToken(API_TOKEN_PREFIX);
  await withDb((s) => createApiToken(s, { name, tokenHash: hashToken(token), userId }));
  return token;
}

async function failure(args: string[], message: string): Promise<void> {
  const r = await cli(args);
  expect(r.stderr.trim()).toBe(`flakeboard: ${message}`);
  expect(r.exitCode).toBe(1);
}

describe('flakeboard token create', () => {
  it('prints the token once, alone on standard output, and stores only its SHA-256', async () => {
    const r = await cli(['token', 'create', 'github-ci']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^fbt_[A-Za-z0-9_-]{43}$/);
    const token = r.stdout;
    expect(r.stderr).toContain('created API token 1 "github-ci" acting as root');
    expect(r.stderr).toContain('shown only this once');
    expect(r.stderr).toContain('flakeboard upload --token');
    expect(r.stderr).toContain('FLAKEBOARD_TOKEN');
    expect(r.stderr).not.toContain(token);

    const rows = await all<{ name: string; token_hash: string; user_id: number }>('SELECT name, token_hash, user_id FROM api_tokens');
    expect(rows).toEqual([{ name: 'github-ci', token_hash: createHash('sha256').update(token).digest('hex'), user_id: 1 }]);
    // Not in any table, nor anywhere in the database's files (the WAL included, if any is left).
    const files = readdirSync(temp.dir).filter((f) => f.startsWith('f.db'));
    expect(files).toContain('f.db');
    for (const file of files) expect(readFileSync(join(temp.dir, file)).includes(token)).toBe(false);
    await withDb((s) => {
      const tables = s.sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>;
      for (const { name } of tables) expect(JSON.stringify(s.sqlite.prepare(`SELECT * FROM "${name}"`).all())).not.toContain(token);
    });
  });

  it('acts as the first admin by default, or as --user; each token is different', async () => {
    const a = await create('one');
    const b = await create('two', '--user', 'ci-bot');
    expect(a).not.toBe(b);
    expect(await all('SELECT api_tokens.name, users.username FROM api_tokens JOIN users ON users.id = user_id ORDER BY api_tokens.id')).toEqual([
      { name: 'one', username: 'root' },
      { name: 'two', username: 'ci-bot' },
    ]);
  });

  it('refuses an unknown --user, an empty name, and a database without an admin', async () => {
    await Promise.all([failure(['token', 'create', 'ci', '--user', 'nobody'], 'no user named nobody'), failure(['token', 'create', '  '], 'the token name must not be empty')]);
    await withDb((s) => s.sqlite.prepare("DELETE FROM users WHERE role = 'admin'").run());
    await failure(['token', 'create', 'ci'], 'there is no admin to own the token: add one with `flakeboard user add NAME --role admin`, or pass --user');
    expect(await all('SELECT * FROM api_tokens')).toEqual([]);
  });
});

describe('flakeboard token create --scope', () => {
  it('upload only by default; read and approve only when asked, and approve only for a user who may review', async () => {
    await create('plain');
    await create('reader', '--scope', 'read,upload');
    await create('trusted', '--scope', 'upload,approve');
    expect(await all('SELECT name, scopes FROM api_tokens ORDER BY id')).toEqual([
      { name: 'plain', scopes: 'upload' },
      { name: 'reader', scopes: 'upload read' },
      { name: 'trusted', scopes: 'upload approve' },
    ]);
    const listed = JSON.parse((await cli(['token', 'list', '--json'])).stdout) as Array<{ name: string; scopes: string[] }>;
    expect(listed.map((t) => [t.name, t.scopes])).toEqual([['plain', ['upload']], ['reader', ['upload', 'read']], ['trusted', ['upload', 'approve']]]);
    expect((await cli(['token', 'list'])).stdout).toMatch(/SCOPES[\s\S]*upload,read/);
    await Promise.all([
      failure(['token', 'create', 'x', '--scope', 'upload,admin'], '--scope: "admin" is not a scope; the scopes are upload, read, approve'),
      failure(['token', 'create', 'x', '--scope', ','], '--scope needs at least one of upload, read, approve'),
      failure(['token', 'create', 'x', '--user', 'ci-bot', '--scope', 'approve'], '--scope approve keeps runs without review: ci-bot is a member, who may not review'),
    ]);
    expect(await all('SELECT count(*) AS n FROM api_tokens')).toEqual([{ n: 3 }]);
  });
});

describe('flakeboard token list and revoke', () => {
  it('lists the tokens without the tokens themselves', async () => {
    expect((await cli(['token', 'list'])).stdout).toBe('no API tokens yet: create one with `flakeboard token create NAME`');
    const token = await stored('github-ci');
    await withDb((s) => s.sqlite.prepare("UPDATE api_tokens SET last_used_at = ? WHERE name = 'github-ci'").run(Date.UTC(2025, 0, 2, 13, 45)));
    await stored('nightly', 2);
    const json = await cli(['token', 'list', '--json']);
    expect(JSON.parse(json.stdout)).toEqual([
      { id: 1, name: 'github-ci', user: 'root', scopes: ['upload'], createdAt: expect.stringMatching(/^\d{4}-/), lastUsedAt: '2025-01-02T13:45:00.000Z', expiresAt: null },
      { id: 2, name: 'nightly', user: 'ci-bot', scopes: ['upload'], createdAt: expect.any(String), lastUsedAt: null, expiresAt: null },
    ]);
    const table = await cli(['token', 'list']);
    expect(table.stdout).not.toContain(token);
    const lines = table.stdout.split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME\s+USER\s+SCOPES\s+CREATED\s+LAST USED\s+EXPIRES$/);
    expect(lines[1]).toMatch(/^1\s+github-ci\s+root\s+upload\s+\d{4}-\d\d-\d\d\s+2025-01-02 13:45 UTC\s+never$/);
    expect(lines[2]).toMatch(/^2\s+nightly\s+ci-bot\s+upload\s+\d{4}-\d\d-\d\d\s+never\s+never$/);
  });

  it('create --expires: the end is stored and listed, and shown as expired once past', async () => {
    await create('weekly', '--expires', '2w');
    await create('old', '--expires', '1h');
    await withDb((s) => s.sqlite.prepare("UPDATE api_tokens SET expires_at = ? WHERE name = 'old'").run(Date.UTC(2025, 0, 2, 13, 45)));
    const [weekly] = await all<{ expires_at: number; created_at: number }>("SELECT expires_at, created_at FROM api_tokens WHERE name = 'weekly'");
    expect(weekly!.expires_at - weekly!.created_at).toBeGreaterThanOrEqual(14 * 86_400_000 - 60_000);
    expect(weekly!.expires_at - weekly!.created_at).toBeLessThanOrEqual(14 * 86_400_000 + 60_000);
    const lines = (await cli(['token', 'list'])).stdout.split('\n');
    expect(lines[1]).toMatch(/^1\s+weekly\s+root\s+upload\s+\S+\s+never\s+\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    expect(lines[2]).toMatch(/^2\s+old\s+root\s+upload\s+\S+\s+never\s+expired 2025-01-02 13:45 UTC$/);
    await failure(['token', 'create', 'x', '--expires', '0d'], '--expires must be a duration such as 90d, 12h or 30m (m minutes, h hours, d days, w weeks) from 1h to 3650d, not "0d"');
  });

  it('revokes by id and by unique name; refuses an unknown token and an ambiguous name', async () => {
    for (const name of ['a', 'ci', 'ci', 'b']) await stored(name);
    const byId = await cli(['token', 'revoke', '1']);
    expect(byId.exitCode).toBe(0);
    expect(byId.stdout).toBe('revoked token 1 "a" of root');
    await Promise.all([
      failure(['token', 'revoke', 'ci'], '2 tokens are named ci: revoke by id'),
      failure(['token', 'revoke', 'nope'], 'no token nope'),
      failure(['token', 'revoke', '99'], 'no token 99'),
    ]);
    expect((await cli(['token', 'revoke', '2'])).exitCode).toBe(0);
    const byName = await cli(['token', 'revoke', 'ci']);
    expect(byName.stdout).toBe('revoked token 3 "ci" of root');
    expect((await cli(['token', 'revoke', 'b'])).exitCode).toBe(0);
    expect(await all('SELECT * FROM api_tokens')).toEqual([]);
  });
});
