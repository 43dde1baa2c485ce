import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../../fixtures/testing/cli.js';
import { createTestTarget, type TestTarget } from '../../fixtures/testing/engines.js';
import { HAS_POSTGRES, POSTGRES_SKIP, POSTGRES_URL, queryRows } from '../../fixtures/testing/postgres.js';
import { ownReports } from '../../fixtures/testing/public-reports.js';
import { startServe } from '../../fixtures/testing/serve-process.js';
import { POSTGRES_LOCK_ROLLUPS } from '../../server/store/engine/dialect.js';
import { describePostgresTrouble } from './import.js';

const env = cleanEnv({ FLAKEBOARD_SCRYPT_N: '1024' });

function onPostgres(name: string, body: () => void): void {
  if (HAS_POSTGRES) describe(name, body);
  else describe.skip(`${name}: ${POSTGRES_SKIP}`, body);
}

interface Outcome {
  file: string;
  runId: number | null;
  tests: number;
  duplicate: boolean;
  error?: string;
}

/** `flakeboard import --db postgres://…` through the built binary, on a fresh database per block. */
onPostgres('import on PostgreSQL', () => {
  let target: TestTarget;
  let url: string;
  let dir: string;
  beforeAll(async () => {
    target = await createTestTarget('postgres');
    url = target.target;
    // Migrated once here, so each test may run alone.
    await (await target.open()).close();
    dir = mkdtempSync(join(tmpdir(), 'flakeboard-import-pg-'));
  });
  afterAll(async () => {
    await target?.remove();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const importJson = async (files: string[], extra: string[] = []) => {
    const r = await runCli(['import', ...files, '--json', '--db', url, '--branch', 'main', '--commit', 'abc1234', ...extra], { env });
    return { ...r, outcomes: JSON.parse(r.stdout) as Outcome[] };
  };
  const count = async (table: string) => Number((await queryRows<{ n: number }>(url, `SELECT count(*) AS n FROM ${table}`))[0]!.n);

  it('stores the own reports; check and the API of serve --db show them', async () => {
    const reports = ownReports();
    const r = await importJson(reports, ['--approve']);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.outcomes.map((o) => [o.error, o.duplicate])).toEqual(reports.map(() => [undefined, false]));
    const runIds = r.outcomes.map((o) => o.runId);
    expect(await queryRows(url, 'SELECT id, status FROM runs ORDER BY id')).toEqual(runIds.map((id) => ({ id, status: 'approved' })));
    expect(await count('results')).toBe(r.outcomes.reduce((sum, o) => sum + o.tests, 0));

    const check = await runCli(['check', reports[0]!, '--json', '--db', url], { env });
    expect(check.stderr).toBe('');
    expect(JSON.parse(check.stdout)).toMatchObject({ verdict: expect.stringMatching(/^(pass|fail)$/) });

    const serve = await startServe(url);
    try {
      const headers = await serve.signIn();
      const res = await fetch(`${serve.url}/api/recent-uploads?page=1`, { headers });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { items: { id: number }[]; total: number };
      expect(body.total).toBe(reports.length);
      expect(body.items.map((u) => u.id).sort((a, b) => a - b)).toEqual(runIds);
    } finally {
      expect((await serve.stop()).exitCode).toBe(0);
    }
  });

  it('five concurrent imports of the same report store one run and four duplicates', async () => {
    // Reports the database has not seen: the own report with every title changed; its tests are
    // stored first from a copy a day earlier, so the five imports write their results side by side
    // (no new-tests lock orders them) and reach the duplicate check together.
    const text = readFileSync(ownReports()[0]!, 'utf8').replace(/"title": ?"/g, '"title": "concurrent ');
    const earlier = join(dir, 'concurrent-earlier.json');
    writeFileSync(earlier, text.replaceAll('"2026-11-21T', '"2026-11-20T'));
    const file = join(dir, 'concurrent.json');
    writeFileSync(file, text);
    const first = (await importJson([earlier], ['--approve'])).outcomes[0];
    expect([first?.duplicate, first?.error]).toEqual([false, undefined]);
    const runsBefore = await count('runs');
    const resultsBefore = await count('results');
    // Another writer holds the rollup lock until all five wait on a lock: without the report lock
    // they would all have found no original by then, and all five be stored as originals.
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    let all: Awaited<ReturnType<typeof importJson>>[];
    try {
      await holder.query('BEGIN');
      await holder.query(POSTGRES_LOCK_ROLLUPS);
      const importing = Promise.all(Array.from({ length: 5 }, () => importJson([file], ['--approve'])));
      let waiting = 0;
      for (let i = 0; i < 300 && waiting < 5; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        waiting = (await queryRows(url, `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)).length;
      }
      expect(waiting).toBe(5);
      await holder.query('COMMIT');
      all = await importing;
    } finally {
      await holder.query('COMMIT').catch(() => {});
      await holder.end();
    }
    for (const r of all) expect([r.exitCode, r.stderr]).toEqual([0, '']);
    const outcomes = all.map((r) => r.outcomes[0]!);
    const originals = outcomes.filter((o) => !o.duplicate);
    expect(originals).toHaveLength(1);
    expect(outcomes.filter((o) => o.duplicate)).toHaveLength(4);
    expect(await count('runs')).toBe(runsBefore + 5);
    // Only the original has results of its own; the duplicates point at it.
    expect(await count('results')).toBe(resultsBefore + originals[0]!.tests);
    expect(await queryRows(url, 'SELECT count(*) AS n FROM runs WHERE duplicate_of = $1', [originals[0]!.runId])).toEqual([{ n: 4 }]);
  });

  it('reads the database from FLAKEBOARD_DATABASE_URL without --db, as a team server is started', async () => {
    const r = await runCli(['import', ownReports()[0]!, '--json', '--branch', 'main', '--commit', 'abc1234', '--name', 'shop · feature/x', '--uploader', 'reporter on box'], { env: { ...env, FLAKEBOARD_DATABASE_URL: url } });
    expect([r.exitCode, r.stderr]).toEqual([0, '']);
    const [outcome] = JSON.parse(r.stdout) as Outcome[];
    const stored = await queryRows<{ id: number }>(url, 'SELECT id, file_name, uploaded_via FROM runs WHERE id = $1', [outcome!.runId]);
    expect(stored).toEqual([{ id: outcome!.runId, file_name: 'shop · feature/x', uploaded_via: 'reporter on box' }]);
  });

  it('a bad report stores nothing and is named', async () => {
    const runsBefore = await count('runs');
    const resultsBefore = await count('results');
    const bad = join(dir, 'bad.json');
    // The own report cut short: its first file suites are whole (and streamed into the transaction), the end is missing.
    const text = readFileSync(ownReports()[2]!, 'utf8');
    writeFileSync(bad, text.slice(0, Math.floor(text.length * 0.8)));
    const r = await importJson([bad]);
    expect(r.exitCode).toBe(1);
    expect(r.outcomes[0]).toMatchObject({ file: bad, runId: null, error: expect.stringContaining('bad.json') });
    expect([await count('runs'), await count('results')]).toEqual([runsBefore, resultsBefore]);
  });

  it('a read-only database: nothing stored, one line that names it without the password and says what to do', async () => {
    const runsBefore = await count('runs');
    const withPassword = new URL(url);
    withPassword.password = 'hidden-pw';
    await queryRows(POSTGRES_URL, `ALTER DATABASE ${new URL(url).pathname.slice(1)} SET default_transaction_read_only = on`);
    try {
      const r = await runCli(['import', ownReports()[1]!, '--db', withPassword.toString(), '--branch', 'main', '--commit', 'abc1234'], { env });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).not.toContain('hidden-pw');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`PostgreSQL at ${redacted(withPassword)}`);
      expect(r.stderr).toMatch(/is read-only .*primary/);
    } finally {
      await queryRows(POSTGRES_URL, `ALTER DATABASE ${new URL(url).pathname.slice(1)} RESET default_transaction_read_only`);
    }
    expect(await count('runs')).toBe(runsBefore);
  });

  it('the connection ended while a report is stored (a restart, a failover): one line that says so, nothing stored', async () => {
    const runsBefore = await count('runs');
    const resultsBefore = await count('results');
    const file = join(dir, 'cut-off.json');
    writeFileSync(file, readFileSync(ownReports()[1]!, 'utf8').replace(/"title": ?"/g, '"title": "cut off '));
    // Another writer holds the rollup lock: the import has written its results and waits inside its transaction.
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(POSTGRES_LOCK_ROLLUPS);
      const importing = runCli(['import', file, '--db', url, '--branch', 'main', '--commit', 'abc1234', '--approve'], { env });
      let waiting: number[] = [];
      for (let i = 0; i < 200 && waiting.length === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        // From another connection: inside the holder's transaction pg_stat_activity is one snapshot.
        waiting = (await queryRows<{ pid: number }>(url, `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)).map((r) => r.pid);
      }
      expect(waiting).toHaveLength(1);
      await queryRows(url, 'SELECT pg_terminate_backend($1)', [waiting[0]]);
      const r = await importing;
      expect(r.exitCode).toBe(1);
      // The server's own word for it (57P01) reaches the import, not only the driver's "Connection terminated".
      expect(r.stderr.trim()).toBe(`✗ ${file}: PostgreSQL at ${url} ended the connection (a restart, a failover or an administrator's command); nothing was stored: import again once it is back`);
    } finally {
      await holder.query('COMMIT').catch(() => {});
      await holder.end();
    }
    expect([await count('runs'), await count('results')]).toEqual([runsBefore, resultsBefore]);
  });
});

function redacted(url: URL): string {
  const copy = new URL(url);
  if (copy.password) copy.password = '***';
  return copy.toString();
}

describe('import into a database it cannot reach', () => {
  it('says so in one line with the password hidden, with the exit code of an unavailable SQLite database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flakeboard-import-unreachable-'));
    try {
      // A SQLite database that cannot be opened: its folder is a file.
      writeFileSync(join(dir, 'not-a-folder'), '');
      const sqlite = await runCli(['import', ownReports()[0]!, '--db', join(dir, 'not-a-folder', 'flakeboard.db')], { env });
      // Port 1 on loopback: nothing listens there.
      const pg = await runCli(['import', ownReports()[0]!, '--db', 'postgres://ci:s3cret-pw@127.0.0.1:1/flakeboard'], { env });
      expect(sqlite.exitCode).not.toBe(0);
      expect(pg.exitCode).toBe(sqlite.exitCode);
      expect(pg.stdout).toBe('');
      expect(pg.stderr).not.toContain('s3cret-pw');
      expect(pg.stderr.trim().split('\n')).toHaveLength(1);
      expect(pg.stderr.trim()).toMatch(/^flakeboard: cannot connect to PostgreSQL at postgres:\/\/ci:\*\*\*@127\.0\.0\.1:1\/flakeboard: .*ECONNREFUSED.*; check that the server runs/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("PostgreSQL's errors while a report is stored", () => {
  const at = 'postgres://ci:***@db.example:5432/flakeboard';
  it('name the database and what to do; an error that is not the database is left to the caller', () => {
    const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });
    expect(describePostgresTrouble(at, pgError('53100', 'could not extend file'))).toBe(`the disk of PostgreSQL at ${at} is full; nothing was stored: free space on the database server, then import again`);
    expect(describePostgresTrouble(at, pgError('25006', 'cannot execute INSERT in a read-only transaction'))).toBe(
      `PostgreSQL at ${at} is read-only (a standby, or default_transaction_read_only); nothing was stored: point --db at the primary`,
    );
    expect(describePostgresTrouble(at, pgError('57P01', 'terminating connection due to administrator command'))).toBe(`PostgreSQL at ${at} ended the connection (a restart, a failover or an administrator's command); nothing was stored: import again once it is back`);
    expect(describePostgresTrouble(at, pgError('57P03', 'the database system is shutting down'))).toBe(`PostgreSQL at ${at} is shutting down or restarting; nothing was stored: import again once it is back`);
    expect(describePostgresTrouble(at, new Error('Connection terminated unexpectedly'))).toBe(
      `lost the connection to PostgreSQL at ${at} (Connection terminated unexpectedly); nothing was stored: check that the server runs, then import again`,
    );
    expect(describePostgresTrouble(at, pgError('ENOENT', 'no such file'))).toBeNull();
    expect(describePostgresTrouble(at, pgError('42P01', 'relation "runs" does not exist'))).toBeNull();
  });
});
