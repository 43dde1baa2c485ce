import { chmodSync, closeSync, copyFileSync, existsSync, openSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../../fixtures/testing/cli.js';
import { startServe, writeHistory, type LiveServe } from '../../fixtures/testing/live-serve.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';
import { LATEST_SCHEMA } from '../../server/store/engine/maintenance.js';

let temp: ReturnType<typeof makeTempDir>;
let serve: LiveServe | null = null;
beforeEach(() => {
  temp = makeTempDir('flakeboard-doctor-');
});
afterEach(async () => {
  await serve?.stop();
  serve = null;
  temp.cleanup();
});

const env = cleanEnv();

// One import for the file; each test checks a copy of its own, so none sees another's changes.
let imported: ReturnType<typeof makeTempDir>;
beforeAll(async () => {
  imported = makeTempDir('flakeboard-doctor-imported-');
  const reports = writeHistory(imported.dir, { seed: 11, runs: 6, days: 6, tests: 30, browsers: ['chromium', 'firefox'], endDate: Date.now() });
  const result = await runCli(['import', '--db', join(imported.dir, 'f.db'), ...reports.map((r) => r.file)], { env });
  expect(result.exitCode, result.stderr).toBe(0);
  // The import closed the database: its WAL is checkpointed into the file and gone.
  expect(existsSync(join(imported.dir, 'f.db-wal'))).toBe(false);
});
afterAll(() => imported?.cleanup());

function importedDb(name = 'f.db'): string {
  const db = join(temp.dir, name);
  copyFileSync(join(imported.dir, 'f.db'), db);
  return db;
}

const lines = (stdout: string) => stdout.split('\n');

describe('flakeboard doctor', () => {
  it('checks a live database while serve runs: all well at 0600, a ✗ with the chmod command at 0644', async () => {
    const db = importedDb();
    serve = await startServe(db);
    const files = [db, `${db}-wal`, `${db}-shm`];
    for (const f of files) chmodSync(f, 0o600);

    const well = await runCli(['doctor', '--db', db], { env });
    expect(well.stderr).toBe('');
    expect(well.exitCode).toBe(0);
    const out = lines(well.stdout);
    expect(out[0]).toMatch(new RegExp(`^✓ database: ${db} \\([\\d.]+ (KB|MB)\\)$`));
    expect(out).toContain('✓ integrity: integrity_check ok');
    expect(out).toContain(`✓ schema: version ${LATEST_SCHEMA}, as this flakeboard writes`);
    expect(out).toContainEqual(expect.stringMatching(/^✓ contents: 6 runs, 360 results, 30 tests, 1 user, 6 pending uploads; [\d.]+ (KB|MB)$/));
    expect(out).toContainEqual(expect.stringMatching(/^✓ wal: WAL mode, WAL file [\d.]+ (B|KB|MB)$/));
    expect(out).toContain('✓ permissions: 0600 (db, -wal, -shm)');
    expect(out).toContainEqual(expect.stringMatching(/^✓ node: Node 20\.\d+\.\d+ \(needs >=20\.19\.0\)$/));
    expect(out).toContainEqual(expect.stringMatching(/^✓ disk: [\d.]+ (MB|GB|TB) free in /));
    expect(out).toContain(`✓ evidence: 0 files, 0 B in ${db}-evidence`);
    expect(out.filter((l) => /^[✓!✗] /.test(l))).toHaveLength(11);

    chmodSync(db, 0o644);
    const open = await runCli(['doctor', '--db', db], { env });
    expect(open.exitCode).toBe(1);
    expect(open.stdout).toContain(`✗ permissions: readable by other users: ${db} (0644)\n  → chmod 600 ${files.join(' ')}`);
    chmodSync(db, 0o640);
    const group = await runCli(['doctor', '--db', db], { env });
    expect(group.exitCode).toBe(0);
    expect(group.stdout).toContain(`! permissions: readable by the group: ${db} (0640)`);
    // serve went on answering throughout.
    expect((await fetch(`${serve.url}/api/health`)).status).toBe(200);
  });

  it('flags a damaged file and a file that is not a database, and says to restore a backup', async () => {
    const db = importedDb();
    const damaged = join(temp.dir, 'damaged.db');
    expect((await runCli(['backup', '--db', db, damaged], { env })).exitCode).toBe(0);
    // Garbage over pages 3 to 12: b-tree pages of the tables and indexes.
    const fd = openSync(damaged, 'r+');
    for (let page = 2; page < 12; page++) writeSync(fd, Buffer.alloc(4096, 0x5a), 0, 4096, page * 4096);
    closeSync(fd);
    const broken = await runCli(['doctor', '--db', damaged], { env });
    expect(broken.exitCode).toBe(1);
    expect(broken.stdout).toMatch(/^✗ integrity: integrity_check found \d+ problems?, first: .+\n {2}→ stop serve, keep a copy of the damaged file, then put the last backup in its place/m);

    // Garbage over the last three pages too.
    const inner = join(temp.dir, 'inner.db');
    expect((await runCli(['backup', '--db', db, inner], { env })).exitCode).toBe(0);
    const pages = statSync(inner).size / 4096;
    const fd2 = openSync(inner, 'r+');
    for (let page = pages - 3; page < pages; page++) writeSync(fd2, Buffer.alloc(4096, 0x5a), 0, 4096, page * 4096);
    closeSync(fd2);
    const checked = await runCli(['doctor', '--db', inner], { env });
    expect(checked.exitCode).toBe(1);
    expect(checked.stdout).toMatch(/^✗ integrity: integrity_check found \d+ problems?, first: .+\n {2}→ stop serve/m);

    const notDb = join(temp.dir, 'notes.db');
    writeFileSync(notDb, 'these are not the tables you are looking for'.repeat(200), { mode: 0o600 });
    const foreign = await runCli(['doctor', '--db', notDb], { env });
    expect(foreign.exitCode).toBe(1);
    expect(foreign.stdout).toContain('✗ integrity: cannot open the database: file is not a database');

    const missing = join(temp.dir, 'none.db');
    const none = await runCli(['doctor', '--db', missing], { env });
    expect(none.exitCode).toBe(1);
    expect(none.stdout).toContain(`✗ database: no database at ${missing}\n  → pass --db or set FLAKEBOARD_DB`);
    expect(existsSync(missing)).toBe(false);
  });

  it('warns about an older schema and never upgrades it', async () => {
    const db = importedDb();
    chmodSync(db, 0o600);
    const raw = new Database(db);
    raw.pragma(`user_version = ${LATEST_SCHEMA - 1}`);
    raw.close();
    const older = await runCli(['doctor', '--db', db], { env });
    expect(older.exitCode).toBe(0);
    expect(older.stdout).toContain(`! schema: version ${LATEST_SCHEMA - 1}; this flakeboard writes ${LATEST_SCHEMA}\n  → the next \`serve\`, \`import\` or \`prune\` upgrades it`);
    const after = new Database(db, { readonly: true });
    expect(after.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA - 1);
    after.close();
  });

  it('shows the settings in effect without secrets, names typos and bad values; --json', async () => {
    const db = importedDb();
    chmodSync(db, 0o600);
    const settings = { FLAKEBOARD_AI_BASE_URL: 'http://localhost:11434/v1', FLAKEBOARD_AI_MODEL: 'llama3.1', FLAKEBOARD_AI_API_KEY: 'sk-very-secret-key', FLAKEBOARD_PROT: '8080' };
    const shown = await runCli(['doctor', '--db', db], { env: cleanEnv(settings) });
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout).not.toContain('sk-very-secret-key');
    expect(shown.stdout).toContain('FLAKEBOARD_AI_API_KEY=(set, hidden)');
    expect(shown.stdout).toContain('✓ ai: model llama3.1 at http://localhost:11434/v1 (API key set)');
    expect(shown.stdout).toContain('! settings: not read by this version: FLAKEBOARD_PROT');

    const bad = await runCli(['doctor', '--db', db, '--json'], { env: cleanEnv({ FLAKEBOARD_PORT: 'eighty', FLAKEBOARD_AI_MODEL: 'llama3.1' }) });
    expect(bad.exitCode).toBe(1);
    const report = JSON.parse(bad.stdout) as { ok: boolean; checks: Array<{ check: string; status: string; message: string; fix?: string }> };
    expect(report.ok).toBe(false);
    expect(report.checks).toContainEqual({ check: 'settings', status: 'fail', message: 'FLAKEBOARD_PORT must be a whole number from 0 to 65535, not "eighty"', fix: expect.stringContaining('serve` refuses to start') });
    expect(report.checks).toContainEqual(expect.objectContaining({ check: 'ai', status: 'warn', message: 'FLAKEBOARD_AI_MODEL is set without FLAKEBOARD_AI_BASE_URL: the local engine answers' }));
  });
});
