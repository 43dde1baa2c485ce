import { basename, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestTarget, describeEachEngine, type TestTarget } from '../../../fixtures/testing/engines.js';
import { ownReports } from '../../../fixtures/testing/public-reports.js';
import { rebuildRollups, storedRollups, storedRows, writtenCounts, type StoredRows } from '../../../fixtures/testing/stored-rows.js';
import { makeTempDir } from '../../../fixtures/testing/temp.js';
import { ingestFile, type IngestResult } from '../../ingest.js';
import { openStore } from '../engine/open.js';
import type { AnyStore } from '../engine/types.js';
import { clearAllData, deleteRun, ReviewError, reviewUploads } from './uploads.js';

const START = Date.UTC(2026, 0, 5, 12);
const REVIEWER = { id: 1, notes: null };

/**
 * The own reports imported pending (run-2 twice: a duplicate), then reviewed and deleted:
 * run-1 approved, run-2 rejected (its copy with it), run-3 deleted. The ids of the imports.
 */
async function importAndReview(store: AnyStore): Promise<IngestResult[]> {
  await store.sql.run(`INSERT INTO users (id, username, password_hash, role, created_at, updated_at) VALUES (1, 'reviewer', 'x', 'reviewer', 0, 0)`);
  const imported: IngestResult[] = [];
  for (const [i, file] of [...ownReports(), ownReports()[1]!].entries()) {
    imported.push(await ingestFile(store, file, { fileName: basename(file), fallbackStartedAt: START + i * 60_000, fallbackGit: () => ({ branch: null, commit: null }) }));
  }
  const [run1, run2, run3] = imported.map((r) => r.runId);
  await reviewUploads(store, [{ id: run1!, action: 'approve' }, { id: run2!, action: 'reject' }], REVIEWER, START);
  expect(await deleteRun(store, run3!)).toBe(true);
  return imported;
}

describeEachEngine('reviews, deletes and clearing', (engine) => {
  let target: TestTarget;
  let store: AnyStore;
  let reference: StoredRows;
  let imported: IngestResult[];
  beforeAll(async () => {
    const temp = makeTempDir('flakeboard-review-reference-');
    const sqlite = openStore(join(temp.dir, 'reference.db'));
    try {
      await importAndReview(sqlite);
      reference = await storedRows(sqlite);
    } finally {
      await sqlite.close();
      temp.cleanup();
    }
    target = await createTestTarget(engine);
    store = await target.open();
    imported = await importAndReview(store);
  });
  afterAll(async () => {
    await store?.close();
    await target?.remove();
  });

  it('leaves the same runs, results and rollups as on SQLite', async () => {
    expect(imported.at(-1)!.duplicate).toBe(true);
    const rows = await storedRows(store);
    expect(rows.daily_test_stats.length).toBeGreaterThan(0);
    expect(rows.runs.filter((r) => r.startsWith('["rejected",'))).toHaveLength(2);
    expect(rows).toEqual(reference);
  });

  it('keeps the rollups equal to a rebuild from what is left', async () => {
    const before = await storedRollups(store);
    await rebuildRollups(store);
    expect(await storedRollups(store)).toEqual(before);
  });

  it('refuses a review of a run already reviewed, changing nothing', async () => {
    const before = await storedRows(store);
    await expect(Promise.resolve().then(() => reviewUploads(store, [{ id: imported[3]!.runId, action: 'approve' }, { id: imported[0]!.runId, action: 'reject' }], REVIEWER))).rejects.toThrow(ReviewError);
    expect(await storedRows(store)).toEqual(before);
  });

  it('clears every run, result and rollup', async () => {
    expect(await clearAllData(store)).toBe(imported.length - 1);
    expect(Object.values(await writtenCounts(store)).every((n) => n === 0)).toBe(true);
  });
});
