import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { normaliseReport } from '../../../core/report/normalise.js';
import { parseReportBytes } from '../../../core/report/parse.js';
import { PUBLIC_REPORTS_DIR, publicReports } from '../../../fixtures/testing/public-reports.js';
import { freshStoreEachTest, TEST_ENGINE } from '../../../fixtures/testing/store.js';
import { makeTempDir } from '../../../fixtures/testing/temp.js';
import { ingestBytes } from '../../ingest.js';
import { MIGRATIONS } from '../engine/migrations.js';
import { openStore, schemaVersion } from '../engine/open.js';
import type { AnyStore, Store } from '../engine/types.js';
import { writeRun } from './write-run.js';

// On the run's engine (FLAKEBOARD_TEST_ENGINE): a fresh database per test.
let store: AnyStore;
freshStoreEachTest((fresh) => (store = fresh));

const count = async (table: string) => (await store.sql.value<number>(`SELECT count(*) AS n FROM ${table}`))!;
// SQLite only: writeRun is SQLite's synchronous writer; PostgreSQL's all-or-nothing write is
// proven by server/ingest-engines.test.ts "stores nothing, though thousands of its tests were read and written first".
const itSqliteWriter = it.skipIf(TEST_ENGINE === 'postgres');

// SQLite only: the file, its folder, WAL, PRAGMAs and user_version are SQLite's own.
describe.skipIf(TEST_ENGINE === 'postgres')('openStore', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let store: Store;
  beforeEach(() => {
    temp = makeTempDir();
    store = openStore(join(temp.dir, 'nested', 'flakeboard.db'));
  });
  afterEach(async () => {
    await store.close();
    temp.cleanup();
  });

  it('creates the folder, applies every migration, and uses WAL with foreign keys', () => {
    expect(schemaVersion(store.sqlite)).toBe(MIGRATIONS.at(-1)!.version);
    expect(store.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
  });

  it('reopens an existing database without re-running migrations', async () => {
    await store.close();
    store = openStore(join(temp.dir, 'nested', 'flakeboard.db'));
    expect(schemaVersion(store.sqlite)).toBe(MIGRATIONS.at(-1)!.version);
  });

  it('refuses a database written by a newer version', async () => {
    store.sqlite.pragma('user_version = 999');
    await store.close();
    expect(() => openStore(join(temp.dir, 'nested', 'flakeboard.db'))).toThrow(/newer flakeboard/);
    store = openStore(join(temp.dir, 'other.db'));
  });
});

describe('importing public sample reports', () => {
  const samples = publicReports();
  // A suite with no test fails the run: without ../shared the skip is one named test.
  if (samples.length === 0) it.skip(`skipped: no sample reports at ${PUBLIC_REPORTS_DIR}`, () => {});
  for (const file of samples) {
    it(`${basename(file)} is stored as the report says`, async () => {
      const bytes = readFileSync(file);
      const run = normaliseReport(parseReportBytes(bytes, basename(file)));
      const result = await ingestBytes(store, bytes, { fileName: basename(file) });
      const row = (await store.sql.get('SELECT * FROM runs WHERE id = @id', { id: result.runId })) as Record<string, unknown>;
      expect(row).toMatchObject({
        status: 'pending',
        is_duplicate: 0,
        total_tests: run.counts.tests,
        passed_tests: run.counts.passed,
        failed_tests: run.counts.failed,
        skipped_tests: run.counts.skipped,
        flaky_tests: run.counts.flaky,
        load_failed: run.loadFailed ? 1 : 0,
        browser: run.detected.browser,
      });
      expect(await count('results')).toBe(run.counts.tests);
      expect(await count('attempts')).toBe(run.tests.reduce((n, t) => n + t.attempts.length, 0));
      const stored = (await store.sql.all(`SELECT status, count(*) AS n FROM results GROUP BY status`)) as Array<{ status: string; n: number }>;
      const byStatus = Object.fromEntries(stored.map((r) => [r.status, r.n]));
      expect((byStatus.failed ?? 0) + (byStatus.timedOut ?? 0)).toBe(run.counts.failed);
      expect(byStatus.passed ?? 0).toBe(run.counts.passed);
    });
  }
});

describe('writeRun', () => {
  const report = JSON.stringify({
    config: { projects: [{ name: 'chromium' }] },
    suites: [
      {
        title: 'a.spec.ts',
        file: 'a.spec.ts',
        specs: [
          { title: 'one', file: 'a.spec.ts', line: 1, column: 1, tests: [{ projectName: 'chromium', expectedStatus: 'passed', results: [{ status: 'passed', retry: 0, duration: 5, startTime: '2026-01-02T03:04:05.000Z' }] }] },
          { title: 'two', file: 'a.spec.ts', line: 2, column: 1, tests: [{ projectName: 'chromium', expectedStatus: 'passed', results: [{ status: 'failed', retry: 0, duration: 5, error: { message: 'Error: x' } }] }] },
        ],
      },
    ],
    errors: [],
  });
  const bytes = Buffer.from(report);

  it('stores new runs pending, or approved with --approve', async () => {
    const pending = await ingestBytes(store, bytes, { fileName: 'a.json' });
    expect(pending).toMatchObject({ duplicate: false, tests: 2, passed: 1, failed: 1 });
    expect(await store.sql.get('SELECT status, started_at FROM runs WHERE id = @id', { id: pending.runId })).toEqual({ status: 'pending', started_at: Date.parse('2026-01-02T03:04:05.000Z') });
    await store.sql.run('DELETE FROM runs');
    const approved = await ingestBytes(store, bytes, { fileName: 'a.json', approve: true });
    expect(await store.sql.get('SELECT status, CASE WHEN reviewed_at IS NOT NULL THEN 1 ELSE 0 END AS reviewed FROM runs WHERE id = @id', { id: approved.runId })).toEqual({ status: 'approved', reviewed: 1 });
  });

  it('the same content again is a pending duplicate with no results of its own, whatever its encoding', async () => {
    const first = await ingestBytes(store, bytes, { fileName: 'a.json', approve: true });
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(JSON.stringify(JSON.parse(report), null, 2).replace(/\n/g, '\r\n'), 'utf16le')]);
    const again = await ingestBytes(store, utf16, { fileName: 'b.json', approve: true });
    expect(again).toMatchObject({ duplicate: true, duplicateOf: first.runId });
    expect(await store.sql.get('SELECT status, is_duplicate, duplicate_of FROM runs WHERE id = @id', { id: again.runId })).toEqual({ status: 'pending', is_duplicate: 1, duplicate_of: first.runId });
    expect(await count('results')).toBe(2);
    expect(await count('tests')).toBe(2);
  });

  it('a rejected original does not make a re-upload a duplicate', async () => {
    const first = await ingestBytes(store, bytes, { fileName: 'a.json' });
    await store.sql.run(`UPDATE runs SET status = 'rejected' WHERE id = @id`, { id: first.runId });
    expect((await ingestBytes(store, bytes, { fileName: 'a.json' })).duplicate).toBe(false);
  });

  itSqliteWriter('a report is stored whole or not at all', async () => {
    const run = normaliseReport(JSON.parse(report));
    // A row the schema refuses, after a good one: the transaction must leave nothing behind.
    run.tests[1]!.status = 'bogus' as never;
    const input = { run, fileName: 'a.json', fileSize: 1, contentHash: 'x', fallbackStartedAt: 0, project: null, gitBranch: null, gitCommit: null, approve: false, uploadedBy: null };
    expect(() => writeRun(store as Store, input)).toThrow(/CHECK constraint/);
    expect([await count('runs'), await count('results'), await count('attempts'), await count('tests')]).toEqual([0, 0, 0, 0]);
  });

  it('reuses a test identity across runs and browsers', async () => {
    await ingestBytes(store, bytes, { fileName: 'a.json' });
    await ingestBytes(store, Buffer.from(report.replace(/"chromium"/g, '"firefox"')), { fileName: 'b.json' });
    expect(await count('tests')).toBe(2);
    expect(await count('results')).toBe(4);
  });
});

describe('a refused write', () => {
  itSqliteWriter('leaves the store able to take the next report', async () => {
    const good = JSON.stringify({ config: {}, suites: [{ title: 'a', file: 'a.spec.ts', specs: [{ title: 't', file: 'a.spec.ts', line: 1, column: 1, tests: [{ projectName: 'p', expectedStatus: 'passed', results: [{ status: 'passed', retry: 0, duration: 1 }] }] }] }], errors: [] });
    const run = normaliseReport(JSON.parse(good));
    run.tests[0]!.status = 'bogus' as never;
    // The first write on this connection fails inside its transaction…
    expect(() => writeRun(store as Store, { run, fileName: 'bad.json', fileSize: 1, contentHash: 'bad', fallbackStartedAt: 0, project: null, gitBranch: null, gitCommit: null, approve: false, uploadedBy: null })).toThrow();
    // …and the next one, and a rejection after it, still work.
    await ingestBytes(store, Buffer.from(good), { fileName: 'good.json' });
    expect(await count('daily_test_stats')).toBe(1);
  });
});
