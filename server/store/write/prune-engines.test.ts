import { basename, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestTarget, describeEachEngine, type TestTarget } from '../../../fixtures/testing/engines.js';
import { ownReports, publicReports } from '../../../fixtures/testing/public-reports.js';
import { rebuildRollups, rollupsOf, storedRollups, storedRows, type StoredRows } from '../../../fixtures/testing/stored-rows.js';
import { makeTempDir } from '../../../fixtures/testing/temp.js';
import { ingestFile } from '../../ingest.js';
import { openStore } from '../engine/open.js';
import type { AnyStore } from '../engine/types.js';
import { planPrune, preparePrune, pruneBatch, type PrunePlan } from './prune.js';

const REPORTS = [...publicReports(), ...ownReports()];
const START = Date.UTC(2026, 0, 5, 12);

/** Every report imported, then the runs before the middle run's start pruned in small batches. */
async function importAndPrune(store: AnyStore): Promise<{ plan: PrunePlan; batches: number; removed: number }> {
  for (const [i, file] of REPORTS.entries()) {
    await ingestFile(store, file, { fileName: basename(file), fallbackStartedAt: START + i * 60_000, fallbackGit: () => ({ branch: null, commit: null }), approve: true });
  }
  const starts = (await store.sql.all<{ started_at: number }>('SELECT started_at FROM runs ORDER BY started_at')).map((r) => Number(r.started_at));
  const cut = starts[Math.floor(starts.length / 2)]!;
  const plan = await planPrune(store, cut);
  preparePrune(store);
  let batches = 0;
  let removed = 0;
  // Batches of at most 10 results: more than one even with only the own reports (no ../shared).
  for (let batch = await pruneBatch(store, cut, 10); batch; batch = await pruneBatch(store, cut, 10)) {
    batches++;
    removed += batch.results;
  }
  return { plan, batches, removed };
}

describeEachEngine('pruning old runs', (engine) => {
  let target: TestTarget;
  let store: AnyStore;
  let reference: StoredRows;
  beforeAll(async () => {
    const temp = makeTempDir('flakeboard-prune-reference-');
    const sqlite = openStore(join(temp.dir, 'reference.db'));
    try {
      await importAndPrune(sqlite);
      reference = await storedRows(sqlite);
    } finally {
      await sqlite.close();
      temp.cleanup();
    }
    target = await createTestTarget(engine);
    store = await target.open();
  });
  afterAll(async () => {
    await store?.close();
    await target?.remove();
  });

  it('removes what its plan said, in batches, leaving the same rows as on SQLite and rollups equal to a rebuild', async () => {
    const { plan, batches, removed } = await importAndPrune(store);
    expect(plan.runs).toBeGreaterThan(0);
    expect(plan.bytesEstimate).toBeGreaterThan(0);
    expect(batches).toBeGreaterThan(1);
    expect(removed).toBe(plan.results);
    expect(Number(await store.sql.value('SELECT count(*) FROM runs WHERE started_at < @cut', { cut: plan.before }))).toBe(0);
    const rows = await storedRows(store);
    expect(rows.daily_test_stats.length).toBeGreaterThan(0);
    expect(rows).toEqual(reference);
    await rebuildRollups(store);
    expect(await storedRollups(store)).toEqual(rollupsOf(rows));
  });
});
