import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../../fixtures/testing/cli.js';
import { pollHealth, startServe, writeHistory, type LiveServe } from '../../fixtures/testing/live-serve.js';
import { withStore } from '../../fixtures/testing/store.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';
import { openForInspection, storeCounts } from '../../server/store/engine/maintenance.js';
import { openStore } from '../../server/store/engine/open.js';

let temp: ReturnType<typeof makeTempDir>;
let serve: LiveServe | null = null;
beforeEach(() => {
  temp = makeTempDir('flakeboard-backup-');
});
afterEach(async () => {
  await serve?.stop();
  serve = null;
  temp.cleanup();
});

const env = cleanEnv();

describe('flakeboard backup', () => {
  it('leaves one self-contained file, in rollback-journal mode', async () => {
    const db = join(temp.dir, 'f.db');
    const reports = writeHistory(temp.dir, { seed: 9, runs: 2, days: 2, tests: 10, browsers: ['chromium'], endDate: Date.now() });
    await runCli(['import', '--db', db, ...reports.map((r) => r.file)], { env });
    expect((await runCli(['backup', '--db', db, join(temp.dir, 'copy.db')], { env })).exitCode).toBe(0);
    expect(readdirSync(temp.dir).filter((f) => f.startsWith('copy.db') || f.startsWith('.'))).toEqual(['copy.db']);
    const copy = openForInspection(join(temp.dir, 'copy.db'));
    expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
    copy.close();
  });

  it('copies a live database while serve answers and an import writes; the copy is 0600, whole, and opens with the same counts', async () => {
    const db = join(temp.dir, 'live.db');
    const reports = writeHistory(temp.dir, { seed: 9, runs: 16, days: 30, tests: 60, browsers: ['chromium', 'webkit'], endDate: Date.now() });
    await runCli(['import', '--db', db, ...reports.slice(0, 8).map((r) => r.file)], { env });
    serve = await startServe(db);

    const health = pollHealth(serve.url);
    const during = join(temp.dir, 'during.db');
    const [copied, imported] = await Promise.all([runCli(['backup', '--db', db, during, '--json'], { env }), runCli(['import', '--db', db, ...reports.slice(8).map((r) => r.file)], { env })]);
    const { statuses, slowestMs } = await health.stop();
    expect([copied.exitCode, copied.stderr, imported.exitCode]).toEqual([0, '', 0]);
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(slowestMs).toBeLessThan(1000);
    expect(statSync(during).mode & 0o777).toBe(0o600);
    // A snapshot from some moment of the import: whole runs only, each with all its results.
    const snapshot = JSON.parse(copied.stdout) as { runs: number; results: number; file: string };
    expect(snapshot.file).toBe(during);
    expect(snapshot.runs).toBeGreaterThanOrEqual(8);
    expect(snapshot.results).toBe(snapshot.runs * 120);

    // Nothing writing now: the copy holds exactly what the live file holds.
    const after = join(temp.dir, 'after.db');
    const quiet = await runCli(['backup', '--db', db, after], { env });
    expect(quiet.exitCode).toBe(0);
    const live = await withStore(db, (store) => storeCounts(store.sqlite));
    expect(live.runs).toBe(16);
    // Opened as serve would open a restored copy (migrations, WAL).
    const restored = openStore(after);
    const copy = { counts: storeCounts(restored.sqlite), rollups: restored.sqlite.prepare('SELECT count(*) FROM daily_test_stats').pluck().get() };
    restored.sqlite.close();
    expect(copy.counts).toEqual(live);
    expect(copy.rollups).toBeGreaterThan(0);
    expect(quiet.stdout).toMatch(new RegExp(`^✓ Backed up ${db} to ${after}: [\\d.]+ (KB|MB), 16 runs, 1,920 results, 60 tests, 1 user, 16 pending uploads; integrity check ok\\.\\n  Evidence \\(screenshots, videos, traces\\) is not in the copy: copy ${db}-evidence .*$`));
    // No temporary file left beside the copies.
    expect(readdirSync(temp.dir).filter((f) => f.startsWith('.'))).toEqual([]);
  });

  it('refuses to overwrite without --force, replaces with it, and refuses a missing folder or the database itself', async () => {
    const db = join(temp.dir, 'f.db');
    const reports = writeHistory(temp.dir, { seed: 9, runs: 2, days: 2, tests: 10, browsers: ['chromium'], endDate: Date.now() });
    await runCli(['import', '--db', db, ...reports.map((r) => r.file)], { env });
    const target = join(temp.dir, 'copy.db');
    writeFileSync(target, 'precious');
    const refused = await runCli(['backup', '--db', db, target], { env });
    expect([refused.exitCode, refused.stderr.trim()]).toEqual([1, `flakeboard: ${target} already exists: pass --force to replace it`]);
    expect(statSync(target).size).toBe(8);

    const forced = await runCli(['backup', '--db', db, target, '--force'], { env });
    expect(forced.exitCode).toBe(0);
    expect(statSync(target).mode & 0o777).toBe(0o600);
    const copy = openStore(target);
    expect(storeCounts(copy.sqlite).runs).toBe(2);
    copy.sqlite.close();

    const noFolder = await runCli(['backup', '--db', db, join(temp.dir, 'nope', 'c.db')], { env });
    expect(noFolder.stderr).toContain(`the folder ${join(temp.dir, 'nope')} does not exist`);
    const itself = await runCli(['backup', '--db', db, db], { env });
    expect(itself.stderr).toContain('the backup cannot be the database itself');
    const missing = await runCli(['backup', '--db', join(temp.dir, 'none.db'), join(temp.dir, 'x.db')], { env });
    expect(missing.stderr).toContain('no database at');
    expect(existsSync(join(temp.dir, 'none.db'))).toBe(false);
  });
});
