import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestTarget, describeEachEngine, type TestTarget } from '../fixtures/testing/engines.js';
import { HAS_POSTGRES, POSTGRES_SKIP } from '../fixtures/testing/postgres.js';
import { generateHistory } from './demo/history.js';
import { ownReports, publicReports } from '../fixtures/testing/public-reports.js';
import { rebuildRollups, rollupsOf, storedRollups, storedRows, writtenCounts, type StoredRows } from '../fixtures/testing/stored-rows.js';
import { makeTempDir } from '../fixtures/testing/temp.js';
import { ingestFile, type IngestOptions } from './ingest.js';
import { POSTGRES_LOCK_ROLLUPS } from './store/engine/dialect.js';
import { openStore } from './store/engine/open.js';
import type { AnyStore, PostgresStore } from './store/engine/types.js';

const REPORTS = [...publicReports(), ...ownReports()];
const START = Date.UTC(2026, 0, 5, 12);
const options = (file: string, i = 0): IngestOptions => ({
  fileName: basename(file),
  fallbackStartedAt: START + i * 60_000,
  // Two branches and none, by file (a file keeps its branch however it is imported): the per-branch rollup is compared too.
  fallbackGit: () => ({ branch: ['main', 'feature/x', null][[...basename(file)].reduce((n, c) => n + c.charCodeAt(0), 0) % 3]!, commit: null }),
  approve: true,
});

async function importAll(store: AnyStore, files: readonly string[]): Promise<void> {
  for (const [i, file] of files.entries()) await ingestFile(store, file, options(file, i));
}

/** The reference: the same reports imported into a SQLite file the way it always was. */
async function sqliteReference(files: readonly string[]): Promise<StoredRows> {
  const temp = makeTempDir('flakeboard-reference-');
  const store = openStore(join(temp.dir, 'reference.db'));
  try {
    await importAll(store, files);
    return await storedRows(store);
  } finally {
    await store.close();
    temp.cleanup();
  }
}

describeEachEngine('importing reports', (engine) => {
  let target: TestTarget;
  let store: AnyStore;
  let reference: StoredRows;
  beforeAll(async () => {
    reference = await sqliteReference(REPORTS);
    target = await createTestTarget(engine);
    store = await target.open();
  });
  afterAll(async () => {
    await store?.close();
    await target?.remove();
  });

  it('stores the same runs, results and rollups as SQLite for the public and own reports', async () => {
    await importAll(store, REPORTS);
    const rows = await storedRows(store);
    for (const table of Object.keys(rows) as Array<keyof StoredRows>) {
      expect(reference[table].length, table).toBeGreaterThan(0);
      expect(rows[table], table).toEqual(reference[table]);
    }
  });

  it('keeps rollups equal to a rebuild of every day from the stored results', async () => {
    const before = await storedRollups(store);
    await rebuildRollups(store);
    expect(await storedRollups(store)).toEqual(before);
  });
});

describeEachEngine('importing reports out of time order', (engine) => {
  let target: TestTarget;
  let store: AnyStore;
  const temp = makeTempDir('flakeboard-order-');
  afterAll(async () => {
    await store?.close();
    await target?.remove();
    temp.cleanup();
  });

  it('stores the same rollups as SQLite, equal to a rebuild, when runs come late on their day or after later days', async () => {
    const [run1, run2, run3, shard] = ownReports();
    // run-1 a day earlier: it comes after later days of the same tests (the totals move), and
    // run-1 itself after run-3 of its own day (the day is rebuilt).
    const earlier = join(temp.dir, 'run-1-a-day-earlier.json');
    writeFileSync(earlier, readFileSync(run1!, 'utf8').replaceAll('"2026-11-21T', '"2026-11-20T'));
    const order = [run3!, run2!, earlier, run1!, shard!];
    const reference = await sqliteReference(order);
    target = await createTestTarget(engine);
    store = await target.open();
    await importAll(store, order);
    const rows = await storedRows(store);
    expect(rows.test_totals.length).toBeGreaterThan(0);
    expect(rows).toEqual(reference);
    await rebuildRollups(store);
    expect(await storedRollups(store)).toEqual(rollupsOf(rows));
  });
});

describeEachEngine('a report that fails part way', (engine) => {
  let target: TestTarget;
  let store: AnyStore;
  const temp = makeTempDir('flakeboard-bad-');
  afterAll(async () => {
    await store?.close();
    await target?.remove();
    temp.cleanup();
  });

  it('stores nothing, though thousands of its tests were read and written first', async () => {
    target = await createTestTarget(engine);
    store = await target.open();
    // 120 copies of a real report's files (2,280 tests: more than one batch on either engine), cut off at its end.
    const report = JSON.parse(readFileSync(ownReports()[0]!, 'utf8')) as { suites: unknown[] };
    const suites = Array.from({ length: 120 }, (_, i) => JSON.parse(JSON.stringify(report.suites).replaceAll('"file":"', `"file":"copy-${i}/`)) as unknown[]).flat();
    const text = JSON.stringify({ ...report, suites });
    const file = join(temp.dir, 'cut.json');
    writeFileSync(file, text.slice(0, text.length - 40));
    await expect(Promise.resolve().then(() => ingestFile(store, file, options(file)))).rejects.toThrow(/cut\.json/);
    expect(Object.values(await writtenCounts(store)).every((n) => n === 0), JSON.stringify(await writtenCounts(store))).toBe(true);
    // The same report whole is stored: the cut alone made it fail.
    writeFileSync(file, text);
    const stored = await ingestFile(store, file, options(file));
    expect(stored.tests).toBeGreaterThan(2000);
    expect((await writtenCounts(store)).results).toBe(stored.tests);
  });
});

const describePostgres = HAS_POSTGRES ? describe : describe.skip;

describePostgres(`concurrent writers on PostgreSQL${HAS_POSTGRES ? '' : `: ${POSTGRES_SKIP}`}`, () => {
  const targets: TestTarget[] = [];
  const stores: AnyStore[] = [];
  afterAll(async () => {
    for (const store of stores) await store.close();
    for (const target of targets) await target.remove();
  });

  /** A fresh database, and `count` stores on it (separate pools, as separate servers would have). */
  async function freshDatabase(count: number): Promise<AnyStore[]> {
    const target = await createTestTarget('postgres');
    targets.push(target);
    const opened = await Promise.all(Array.from({ length: count }, () => target.open()));
    stores.push(...opened);
    return opened;
  }

  it('stores one run and nine duplicates when ten jobs send the same report at once, and counts it once', async () => {
    const file = ownReports()[0]!;
    const writers = await freshDatabase(10);
    const results = await Promise.all(writers.map((store) => ingestFile(store, file, options(file))));
    expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
    const original = results.find((r) => !r.duplicate)!;
    expect(results.filter((r) => r.duplicate).map((r) => r.duplicateOf)).toEqual(new Array(9).fill(original.runId));
    const [once] = await freshDatabase(1);
    await ingestFile(once!, file, options(file));
    const rows = await storedRows(writers[0]!);
    expect(rows.runs.filter((r) => r.startsWith('["pending",1,'))).toHaveLength(9);
    expect(rows.results).toEqual((await storedRows(once!)).results);
    expect(rollupsOf(rows)).toEqual(await storedRollups(once!));
  });

  it('stores two reports that create the same new tests in opposite orders at once (no deadlock)', async () => {
    const temp = makeTempDir('flakeboard-orders-');
    try {
      // 2,280 new tests each, more than one batch: without care each would wait for the other's rows.
      const report = JSON.parse(readFileSync(ownReports()[0]!, 'utf8')) as { suites: unknown[] };
      const suites = Array.from({ length: 120 }, (_, i) => JSON.parse(JSON.stringify(report.suites).replaceAll('"file":"', `"file":"copy-${i}/`)) as unknown[]).flat();
      const forwards = join(temp.dir, 'forwards.json');
      const backwards = join(temp.dir, 'backwards.json');
      writeFileSync(forwards, JSON.stringify({ ...report, suites }));
      writeFileSync(backwards, JSON.stringify({ ...report, suites: [...suites].reverse() }).replaceAll('"2026-11-21T', '"2026-11-22T'));
      const writers = await freshDatabase(2);
      const stored = await Promise.all([ingestFile(writers[0]!, forwards, options(forwards)), ingestFile(writers[1]!, backwards, options(backwards))]);
      expect(stored.map((r) => r.duplicate)).toEqual([false, false]);
      // One identity per test, shared by both runs.
      const tests = Number(await writers[0]!.sql.value('SELECT count(*) FROM tests'));
      expect(tests).toBeGreaterThan(1000);
      expect(Number(await writers[0]!.sql.value('SELECT count(*) FROM tests t WHERE (SELECT count(DISTINCT r.run_id) FROM results r WHERE r.test_id = t.id) = 2'))).toBe(tests);
      expect(Number(await writers[0]!.sql.value('SELECT count(*) FROM results'))).toBe(2 * stored[0]!.tests);
    } finally {
      temp.cleanup();
    }
  });

  it('adds ten runs of the same tests and day sent at once exactly as one by one (no count lost or doubled)', async () => {
    const temp = makeTempDir('flakeboard-same-day-');
    try {
      // run-1 at ten hours of one day: every run upserts the same rollup rows; the tests exist already.
      const text = readFileSync(ownReports()[0]!, 'utf8');
      const at = (hour: string) => {
        const file = join(temp.dir, `run-1-at-${hour}.json`);
        writeFileSync(file, text.replaceAll('"2026-11-21T17:', `"2026-11-21T${hour}:`));
        return file;
      };
      const first = at('07');
      const files = ['13', '09', '16', '08', '12', '15', '10', '14', '11', '17'].map(at);
      const writers = await freshDatabase(10);
      await ingestFile(writers[0]!, first, options(first));
      const stored = await Promise.all(files.map((file, i) => ingestFile(writers[i]!, file, options(file, i))));
      expect(stored.filter((r) => r.duplicate)).toHaveLength(0);
      const [oneByOne] = await freshDatabase(1);
      await importAll(oneByOne!, [first, ...files]);
      const together = await storedRows(writers[0]!);
      expect(together.daily_test_stats.length).toBeGreaterThan(0);
      expect(rollupsOf(together)).toEqual(await storedRollups(oneByOne!));
      expect(together.daily_test_stats.every((row) => JSON.parse(row)[3] === 11)).toBe(true);
    } finally {
      temp.cleanup();
    }
  });

  it('gets the rollups right when an earlier run commits after a later one, both written at once', async () => {
    const temp = makeTempDir('flakeboard-in-flight-');
    const [run1, , run3] = ownReports();
    const earlier = join(temp.dir, 'run-1-a-day-earlier.json');
    writeFileSync(earlier, readFileSync(run1!, 'utf8').replaceAll('"2026-11-21T', '"2026-11-20T'));
    const writers = await freshDatabase(3);
    const [base, a, b] = writers as [AnyStore, AnyStore, AnyStore];
    // The tests exist (a day earlier), so both runs write their results at once.
    await ingestFile(base, earlier, options(earlier));
    // Another writer holds the rollup lock while run-3 and then run-1 (older, same day) queue for it.
    const holder = new pg.Client({ connectionString: (base as PostgresStore).pool.options.connectionString });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(POSTGRES_LOCK_ROLLUPS);
      const waiting = async (n: number) => {
        while (Number((await holder.query(`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`)).rows[0].n) < n) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      const later = ingestFile(a, run3!, options(run3!));
      await waiting(1);
      const older = ingestFile(b, run1!, options(run1!));
      await waiting(2);
      await holder.query('COMMIT');
      expect((await Promise.all([later, older])).map((r) => r.duplicate)).toEqual([false, false]);
    } finally {
      await holder.end();
    }
    const [inOrder] = await freshDatabase(1);
    for (const file of [earlier, run1!, run3!]) await ingestFile(inOrder!, file, options(file));
    temp.cleanup();
    const rows = await storedRows(base);
    expect(rows.daily_test_stats.length).toBeGreaterThan(0);
    expect(rollupsOf(rows)).toEqual(await storedRollups(inOrder!));
  });

  it('stores ten different reports sent at once, with the rollups of storing them one by one', async () => {
    // The real reports, topped up with generated ones where ../shared's public reports are absent.
    const temp = makeTempDir('flakeboard-ten-');
    const generated = [...generateHistory({ seed: 5, runs: 10, tests: 40, days: 3, endDate: START })].map(({ fileName, report }) => {
      const path = join(temp.dir, fileName);
      writeFileSync(path, JSON.stringify(report));
      return path;
    });
    const files = [...REPORTS.slice(-10), ...generated].slice(0, 10);
    expect(new Set(files).size).toBe(10);
    const writers = await freshDatabase(10);
    const results = await Promise.all(files.map((file, i) => ingestFile(writers[i]!, file, options(file, i))));
    expect(results.filter((r) => r.duplicate)).toHaveLength(0);
    const [oneByOne] = await freshDatabase(1);
    await importAll(oneByOne!, files);
    const together = await storedRows(writers[0]!);
    const apart = await storedRows(oneByOne!);
    temp.cleanup();
    expect(together.daily_test_stats.length).toBeGreaterThan(0);
    expect(together).toEqual(apart);
  });
});
