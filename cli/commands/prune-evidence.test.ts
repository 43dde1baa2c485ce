import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../../fixtures/testing/cli.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';

let temp: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  temp = makeTempDir('flakeboard-evidence-prune-');
});
afterEach(() => temp.cleanup());

const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

function write(path: string, content: string | Buffer): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  return path;
}

/** A report of one test that failed (or passed) on `day`, with a screenshot of its own and one shared with every run. */
function report(name: string, day: string, status: 'failed' | 'passed', own: string, shared: string): string {
  const file = join(temp.dir, name, 'report.json');
  return write(
    file,
    JSON.stringify({
      config: { version: '1.50.0', projects: [{ name: 'chromium' }] },
      suites: [{ title: 'a.spec.ts', file: 'a.spec.ts', specs: [{ title: `t ${name}`, file: 'a.spec.ts', line: 1, column: 1, tests: [{ projectName: 'chromium', expectedStatus: 'passed', results: [{ retry: 0, status, duration: 5, startTime: `${day}T10:00:00.000Z`, attachments: [
        { name: 'screenshot', contentType: 'image/png', path: write(join(temp.dir, name, 'test-results', 'own.png'), own) },
        { name: 'shared', contentType: 'image/png', path: write(join(temp.dir, name, 'test-results', 'shared.png'), shared) },
      ] }] }] }] }],
      stats: { startTime: `${day}T10:00:00.000Z`, duration: 10 },
      errors: [],
    }),
  );
}

function rows<T>(db: string, sql: string): T[] {
  const sqlite = new Database(db, { readonly: true });
  try {
    return sqlite.prepare(sql).all() as T[];
  } finally {
    sqlite.close();
  }
}

const blobPath = (db: string, hash: string) => join(`${db}-evidence`, hash.slice(0, 2), hash);

describe('prune and doctor keep the evidence in step with the runs', () => {
  it('prune removes the evidence of removed runs only, and the quota drops passing tests\' evidence first', async () => {
    const db = join(temp.dir, 'flakeboard.db');
    const env = cleanEnv();
    expect((await runCli(['import', report('old', '2020-01-01', 'failed', 'old screenshot', 'shared'), '--db', db, '--approve'], { env })).exitCode).toBe(0);
    expect((await runCli(['import', report('new', '2099-01-01', 'failed', 'new screenshot!', 'shared'), '--db', db, '--approve'], { env })).exitCode).toBe(0);
    expect((await runCli(['import', report('pass', '2099-01-02', 'passed', 'passing screenshot', 'shared'), '--db', db, '--approve', '--attachments', 'all'], { env })).exitCode).toBe(0);
    // Stored over an hour ago: the grace that protects an upload's blobs waiting for their run is past.
    new Database(db).prepare('UPDATE evidence_blobs SET stored_at = stored_at - 7200000').run();
    const pruned = await runCli(['prune', '--older-than', '2021-01-01', '--yes', '--db', db], { env });
    expect(pruned.exitCode).toBe(0);
    expect(pruned.stdout).toContain('Removed 1 evidence files no run names any more');
    expect(existsSync(blobPath(db, sha('old screenshot')))).toBe(false);
    expect(existsSync(blobPath(db, sha('shared')))).toBe(true);
    expect(existsSync(blobPath(db, sha('new screenshot!')))).toBe(true);

    // 'shared' (6 bytes) + 'new screenshot!' (15) + 'passing screenshot' (18) = 39: a quota of 25 drops the passing one only.
    const quota = await runCli(['prune', '--older-than', '2021-01-01', '--yes', '--db', db, '--evidence-max-size', '25'], { env });
    expect(quota.exitCode).toBe(0);
    expect(quota.stdout).toContain('Dropped 1 evidence files');
    expect(existsSync(blobPath(db, sha('passing screenshot')))).toBe(false);
    expect(existsSync(blobPath(db, sha('new screenshot!')))).toBe(true);
    expect(rows<{ name: string; state: string }>(db, `SELECT a.name, a.state FROM attachments a JOIN results r ON r.id = a.result_id JOIN tests t ON t.id = r.test_id WHERE t.title = 't pass' ORDER BY a.ordinal`)).toEqual([
      { name: 'screenshot', state: 'dropped' },
      { name: 'shared', state: 'stored' },
    ]);
  });

  it('doctor counts the evidence, names missing and orphaned files, and --clean-orphans removes orphans', async () => {
    const db = join(temp.dir, 'flakeboard.db');
    const env = cleanEnv();
    expect((await runCli(['import', report('one', '2099-01-01', 'failed', 'one screenshot', 'shared'), '--db', db], { env })).exitCode).toBe(0);
    const orphan = write(blobPath(db, sha('orphan')), 'orphan');
    const old = new Date(Date.now() - 2 * 3600_000);
    utimesSync(orphan, old, old);
    const { rmSync } = await import('node:fs');
    rmSync(blobPath(db, sha('shared')));
    const doctor = await runCli(['doctor', '--db', db, '--json'], { env });
    const checks = (JSON.parse(doctor.stdout) as { checks: Array<{ check: string; status: string; message: string }> }).checks.filter((c) => c.check.startsWith('evidence'));
    expect(checks.map((c) => [c.check, c.status])).toEqual([
      ['evidence', 'ok'],
      ['evidence missing', 'warn'],
      ['evidence orphans', 'warn'],
    ]);
    expect(checks[0]!.message).toMatch(/^2 files, /);
    expect(checks[1]!.message).toContain(sha('shared'));
    const clean = await runCli(['doctor', '--db', db, '--clean-orphans'], { env });
    expect(clean.stdout).toContain('removed 1 files no run names');
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(blobPath(db, sha('one screenshot')))).toBe(true);
  });
});
