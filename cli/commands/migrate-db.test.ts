import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../../fixtures/testing/cli.js';
import { createTestDatabase, HAS_POSTGRES, POSTGRES_SKIP, POSTGRES_URL, queryRows, withDatabase, type TestDatabase } from '../../fixtures/testing/postgres.js';
import { ownReports } from '../../fixtures/testing/public-reports.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';

const env = cleanEnv({ FLAKEBOARD_SCRYPT_N: '1024' });

describe('a PostgreSQL URL on the command line', () => {
  it('serve and user with --db postgres://… or FLAKEBOARD_DATABASE_URL connect to it, and say in one line when they cannot, password hidden', async () => {
    const url = 'postgres://fb:s3cret-pw@127.0.0.1:1/flakeboard';
    const serve = await runCli(['serve', '--db', url, '--port', '0'], { env });
    const user = await runCli(['user', 'list'], { env: { ...env, FLAKEBOARD_DATABASE_URL: url } });
    for (const [name, r] of [['serve', serve], ['user list', user]] as const) {
      expect(r.exitCode, name).toBe(1);
      expect(r.stderr.trim().split('\n'), name).toEqual([
        "flakeboard: cannot connect to PostgreSQL at postgres://fb:***@127.0.0.1:1/flakeboard: connect ECONNREFUSED 127.0.0.1:1; check that the server runs and the URL's host and port",
      ]);
    }
  });

  it('mcp and import connect to it too, and say in one line when they cannot, password hidden', async () => {
    const url = 'postgres://fb:s3cret-pw@127.0.0.1:1/flakeboard';
    for (const args of [['mcp'], ['import', ownReports()[0]!]]) {
      const r = await runCli([...args, '--db', url], { env });
      expect([r.exitCode, r.stderr.trim().split('\n')], args[0]).toEqual([
        1,
        ["flakeboard: cannot connect to PostgreSQL at postgres://fb:***@127.0.0.1:1/flakeboard: connect ECONNREFUSED 127.0.0.1:1; check that the server runs and the URL's host and port"],
      ]);
    }
  });

  it('a command told to ask a server (check --server) is not stopped by FLAKEBOARD_DATABASE_URL', async () => {
    const r = await runCli(['check', ownReports()[0]!, '--server', 'http://127.0.0.1:1', '--token', 'fb_x'], { env: { ...env, FLAKEBOARD_DATABASE_URL: 'postgres://h/db' } });
    expect(r.stderr).not.toContain('PostgreSQL');
    // It got as far as asking the server (nobody listens there).
    expect(r.stderr).toContain('127.0.0.1:1');
  });

  it('--db wins over FLAKEBOARD_DATABASE_URL, and FLAKEBOARD_DATABASE_URL must be a PostgreSQL URL', async () => {
    const temp = makeTempDir();
    try {
      const file = join(temp.dir, 'none.db');
      const r = await runCli(['doctor', '--db', file], { env: { ...env, FLAKEBOARD_DATABASE_URL: 'postgres://fb:pw@127.0.0.1:1/db' } });
      expect(r.stdout).toContain(`✗ database: no database at ${file}`);
      expect(r.stdout).not.toContain('pw@');
      const notUrl = await runCli(['user', 'list'], { env: { ...env, FLAKEBOARD_DATABASE_URL: file } });
      expect([notUrl.exitCode, notUrl.stderr.trim()]).toEqual([1, 'flakeboard: FLAKEBOARD_DATABASE_URL must be a PostgreSQL URL (postgres://user:password@host:port/database); a SQLite file goes in FLAKEBOARD_DB']);
    } finally {
      temp.cleanup();
    }
  });

  it('FLAKEBOARD_DB and FLAKEBOARD_DATABASE_URL together is refused as a contradiction', async () => {
    const r = await runCli(['user', 'list'], { env: { ...env, FLAKEBOARD_DB: 'x.db', FLAKEBOARD_DATABASE_URL: 'postgres://h/db' } });
    expect([r.exitCode, r.stderr.trim()]).toEqual([1, 'flakeboard: FLAKEBOARD_DB and FLAKEBOARD_DATABASE_URL are both set: unset one, or pass --db']);
  });

  it('migrate-db names the URL without its password when it cannot connect', async () => {
    const temp = makeTempDir();
    try {
      const db = join(temp.dir, 'flakeboard.db');
      expect((await runCli(['import', ownReports()[0]!, '--db', db], { env })).exitCode).toBe(0);
      const r = await runCli(['migrate-db', '--from', db, '--to', 'postgres://fb:s3cret-pw@127.0.0.1:1/flakeboard'], { env });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain('cannot connect to PostgreSQL at postgres://fb:***@127.0.0.1:1/flakeboard');
      expect(r.stderr).not.toContain('s3cret-pw');
    } finally {
      temp.cleanup();
    }
  });
});

describe.skipIf(!HAS_POSTGRES)('flakeboard migrate-db into a real PostgreSQL', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let target: TestDatabase;
  let file: string;
  let sqliteRows: (sql: string) => Record<string, unknown>[];

  beforeAll(async () => {
    temp = makeTempDir();
    file = join(temp.dir, 'flakeboard.db');
    const reports = ownReports();
    // Every report, and the first again (a duplicate run pointing at its original). The branch is
    // given so the branch rollups have rows wherever the tests run (outside a git checkout too).
    expect((await runCli(['import', ...reports, '--db', file, '--branch', 'main'], { env })).exitCode).toBe(0);
    expect((await runCli(['import', reports[0]!, '--db', file, '--branch', 'main'], { env })).exitCode).toBe(0);
    expect((await runCli(['user', 'add', 'Admin', '--role', 'admin', '--password-stdin', '--db', file], { env, input: 'correct horse battery\n' })).exitCode).toBe(0);
    expect((await runCli(['token', 'create', 'ci', '--db', file], { env })).exitCode).toBe(0);
    // What only a running server writes (sign-ins, lockouts, review, settings, quarantine), as it writes it.
    const raw = new Database(file);
    raw.exec(`
      INSERT INTO settings (key, value) VALUES ('xsrf-key', 'k');
      INSERT INTO sessions (token_hash, session_hash, user_id, created_at, last_seen_at, expires_at) VALUES ('th', 'sh', 1, 1, 2, 3);
      INSERT INTO login_failures (user_id, address, failures, last_failed_at, locked_until) VALUES (1, '10.0.0.9', 5, 10, 20);
      INSERT INTO rate_limits (limit_key, window_start, window_end, hits) VALUES ('login:10.0.0.9', 10, 60010, 3);
      INSERT INTO unknown_login_failures (name_hash, address, failures, last_failed_at, locked_until) VALUES ('ab12', '10.0.0.9', 2, 10, NULL);
      INSERT INTO quarantine (title, file, project, reason, owner, created_by, created_at) VALUES ('checkout', 'a.spec.ts', NULL, 'flaky API', 'team', 1, 5);
      INSERT INTO users (username, password_hash, role, created_at, updated_at, oidc_issuer, oidc_subject) VALUES ('dana', 'sso', 'member', 1, 1, 'https://idp.example.com', 'u-1');
      INSERT INTO oidc_flows (flow_hash, stage, state, nonce, code_verifier, redirect_uri, return_to, user_id, created_at, expires_at) VALUES ('fh', 'done', 's', 'n', 'v', 'http://127.0.0.1/api/auth/oidc/callback', '/', 1, 1, 2);
      INSERT INTO test_owners (test_id, owner, source) SELECT min(id), '@team', 'codeowners' FROM tests;
      INSERT INTO webhooks (name, kind, url, secret, events, base_branch, pass_rate_threshold, expiry_days, created_by, created_at) VALUES ('alerts', 'generic', 'https://alerts.example/hook', 'secret-0123456789abcdef', 'new-flaky pass-rate', 'main', 92.5, 3, 'root', 6);
      INSERT INTO webhook_deliveries (webhook_id, event_key, event, payload, state, attempts, next_attempt_at, last_status, last_error, claimed_by, claimed_until, created_at, sent_at) VALUES (1, 'new-flaky:run:1', 'new-flaky', '{"id":"new-flaky:run:1"}', 'sent', 1, 6, 200, NULL, NULL, NULL, 6, 7);
      INSERT INTO evidence_blobs (sha256, size, content_type, stored_at, failing) VALUES ('${'a'.repeat(64)}', 3, 'image/png', 9, 1);
      INSERT INTO attachments (result_id, retry, ordinal, name, content_type, kind, sha256, size, state)
        SELECT result_id, retry, 0, 'screenshot', 'image/png', 'screenshot', '${'a'.repeat(64)}', 3, 'stored' FROM attempts ORDER BY result_id LIMIT 1;
      INSERT INTO kept_answers (key, name, args, version, json, asked_at) VALUES ('owners{}', 'owners', '{}', 'code:1:v', '{"owners":["@team"]}', 8);
      UPDATE runs SET status = 'approved', reviewed_by = 1, reviewed_at = 7, review_notes = 'ok' || char(0) || 'nul' WHERE id = 1;
    `);
    raw.close();
    target = await createTestDatabase();
    sqliteRows = (sql) => {
      const db = new Database(file, { readonly: true });
      try {
        return db.prepare(sql).all() as Record<string, unknown>[];
      } finally {
        db.close();
      }
    };
  });

  afterAll(async () => {
    await target?.drop();
    temp?.cleanup();
  });

  const tables = () => (sqliteRows("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name") as { name: string }[]).map((r) => r.name);
  const count = (table: string) => Number(sqliteRows(`SELECT count(*) AS n FROM ${table}`)[0]!.n);
  const pgCount = async (url: string, table: string) => Number((await queryRows<{ n: number }>(url, `SELECT count(*) AS n FROM ${table}`))[0]!.n);

  it('copies every table in one go: the counts match table by table, and sampled rows are equal', async () => {
    const all = tables();
    expect(all.length).toBeGreaterThanOrEqual(15);
    for (const t of all) expect(count(t), `${t} has rows to copy`).toBeGreaterThan(0);

    const r = await runCli(['migrate-db', '--from', file, '--to', target.url], { env });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    for (const t of all) {
      expect(await pgCount(target.url, t), t).toBe(count(t));
      expect(r.stdout).toMatch(new RegExp(`^  ${t} +${count(t).toLocaleString('en-US')}$`, 'm'));
    }
    expect(r.stdout).toContain(`${all.length} tables`);

    // The first and last rows of each table, column by column (PostgreSQL text holds no NUL: U+FFFD).
    for (const t of all) {
      const key = (sqliteRows(`SELECT name FROM pragma_table_info('${t}') WHERE pk > 0 ORDER BY pk`) as { name: string }[]).map((c) => c.name).join(', ');
      for (const order of ['ASC', 'DESC']) {
        const query = `SELECT * FROM ${t} ORDER BY ${key.split(', ').map((k) => `${k} ${order}`).join(', ')} LIMIT 3`;
        const expected = sqliteRows(query).map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'string' ? v.replaceAll('\0', '\uFFFD') : v])));
        expect(await queryRows(target.url, query), `${t} ${order}`).toEqual(expected);
      }
    }
    const [run] = await queryRows<{ status: string; review_notes: string }>(target.url, 'SELECT status, review_notes FROM runs WHERE id = 1');
    expect(run).toEqual({ status: 'approved', review_notes: 'ok\uFFFDnul' });
    const duplicate = await queryRows<{ duplicate_of: number }>(target.url, 'SELECT duplicate_of FROM runs WHERE is_duplicate = 1');
    expect(duplicate).toEqual([{ duplicate_of: 1 }]);
    // Token hashes stay hashes: the same 64 hex digits, no plain token anywhere.
    const tokens = await queryRows<{ token_hash: string }>(target.url, 'SELECT token_hash FROM api_tokens');
    expect(tokens.map((t) => t.token_hash)).toEqual(sqliteRows('SELECT token_hash FROM api_tokens').map((t) => t.token_hash));
    expect(tokens[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('moves every id sequence past the copied ids: the next row PostgreSQL numbers does not collide', async () => {
    const [user] = await queryRows<{ id: number }>(target.url, "INSERT INTO users (username, password_hash, role, created_at, updated_at) VALUES ('next', 'h', 'member', 1, 1) RETURNING id");
    const [run] = await queryRows<{ id: number }>(
      target.url,
      `INSERT INTO runs (content_hash, file_name, browser, started_at, uploaded_at, total_tests, passed_tests, failed_tests, skipped_tests, flaky_tests)
       VALUES ('x', 'x.json', 'chromium', 1, 1, 0, 0, 0, 0, 0) RETURNING id`,
    );
    expect(user!.id).toBe(Number(sqliteRows('SELECT max(id) AS m FROM users')[0]!.m) + 1);
    expect(run!.id).toBe(Number(sqliteRows('SELECT max(id) AS m FROM runs')[0]!.m) + 1);
    await queryRows(target.url, 'DELETE FROM runs WHERE id = $1', [run!.id]);
    await queryRows(target.url, 'DELETE FROM users WHERE id = $1', [user!.id]);
  });

  it('refuses a database that holds rows, and with --force replaces them (no doubled rows)', async () => {
    const refused = await runCli(['migrate-db', '--from', file, '--to', target.url], { env });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/^flakeboard: the PostgreSQL database already holds rows \(in .*runs.*\): pass --force to replace them/);
    const forced = await runCli(['migrate-db', '--from', file, '--to', target.url, '--force', '--json'], { env });
    expect(forced.exitCode).toBe(0);
    const summary = JSON.parse(forced.stdout) as { tables: Record<string, number>; rows: number; to: string };
    for (const t of tables()) {
      expect(summary.tables[t], t).toBe(count(t));
      expect(await pgCount(target.url, t), t).toBe(count(t));
    }
  });

  it('is all or nothing: a row PostgreSQL refuses late in the copy leaves the target empty', async () => {
    const broken = join(temp.dir, 'broken.db');
    copyFileSync(file, broken);
    // A file written with foreign keys off: a lockout row of a user that no longer exists.
    const raw = new Database(broken);
    raw.pragma('foreign_keys = OFF');
    raw.exec("INSERT INTO login_failures (user_id, address, failures, last_failed_at) VALUES (999, '10.0.0.1', 1, 1)");
    raw.close();
    const empty = await createTestDatabase();
    try {
      const r = await runCli(['migrate-db', '--from', broken, '--to', empty.url], { env });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(/login_failures/);
      for (const t of tables()) expect(await pgCount(empty.url, t), t).toBe(0);
    } finally {
      await empty.drop();
    }
  });

  it('stops before writing anything when the SQLite file has a table the copier does not know', async () => {
    const extra = join(temp.dir, 'extra.db');
    copyFileSync(file, extra);
    const raw = new Database(extra);
    raw.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('kept only in SQLite')");
    raw.close();
    const empty = await createTestDatabase();
    try {
      const r = await runCli(['migrate-db', '--from', extra, '--to', empty.url], { env });
      expect([r.exitCode, r.stderr.trim()]).toEqual([1, 'flakeboard: the SQLite file has a table "notes" that the PostgreSQL schema does not have (written by another flakeboard version?): nothing was copied']);
      for (const t of tables()) expect(await pgCount(empty.url, t), t).toBe(0);
    } finally {
      await empty.drop();
    }
  });

  it('doctor on the PostgreSQL URL reports the server version, the schema version and the rows per table', async () => {
    const r = await runCli(['doctor', '--db', target.url], { env });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^✓ database: PostgreSQL \d+\.\d+.* at postgres:\/\/.*\/fb_test_/m);
    expect(r.stdout).toMatch(/^✓ schema: version \d+, as this flakeboard writes$/m);
    expect(r.stdout).toContain(`✓ contents: api_tokens ${count('api_tokens')}, attachments ${count('attachments')}, attempts ${count('attempts')}`);
    expect(r.stdout).toContain(`runs ${count('runs')}`);

    const missing = await runCli(['doctor', '--db', withDatabase(POSTGRES_URL, 'fb_test_does_not_exist')], { env });
    expect(missing.exitCode).toBe(1);
    expect(missing.stdout).toMatch(/^✗ database: .*fb_test_does_not_exist.*does not exist/m);
  });
});

describe.skipIf(HAS_POSTGRES)('flakeboard migrate-db into a real PostgreSQL', () => {
  it.skip(POSTGRES_SKIP, () => {});
});
