import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestTarget, type TestTarget } from '../../fixtures/testing/engines.js';
import { HAS_POSTGRES, POSTGRES_SKIP, queryRows } from '../../fixtures/testing/postgres.js';
import type { AnyStore } from '../store/engine/types.js';
import { createAnalyticsRunner } from './runner.js';
import { today } from './windows.js';

function onPostgres(name: string, body: () => void): void {
  if (HAS_POSTGRES) describe(name, body);
  else describe.skip(`${name}: ${POSTGRES_SKIP}`, body);
}

const NOW = Date.UTC(2026, 10, 20, 12);

/**
 * On PostgreSQL the analytics worker computes its two answers at once: an answer waiting on the
 * database (here a table locked by another session) must not hold up the next one, as it did
 * when the worker took them one at a time.
 */
onPostgres('the analytics worker on PostgreSQL', () => {
  let target: TestTarget;
  let store: AnyStore;
  beforeAll(async () => {
    target = await createTestTarget('postgres');
    store = await target.open();
  });
  afterAll(async () => {
    await store?.close();
    await target?.remove();
  });

  it('answers a second query while the first waits for the database', async () => {
    const runner = createAnalyticsRunner(store, { worker: true });
    const locker = new pg.Client({ connectionString: target.target });
    await locker.connect();
    try {
      await runner.ready();
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE daily_test_stats IN ACCESS EXCLUSIVE MODE');
      let dashboardDone = false;
      const dashboard = runner.json(today(NOW), 'dashboard', { days: 7, now: NOW, limit: 5 }).finally(() => (dashboardDone = true));
      // The dashboard has reached the locked table: its statement waits for the lock.
      for (let i = 0; i < 200; i++) {
        const waiting = await queryRows(target.target, "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%daily_test_stats%'");
        if (waiting.length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(dashboardDone).toBe(false);
      // The branches read only the runs table: answered while the dashboard still waits.
      const tooLong = new Promise<string>((_, fail) => setTimeout(() => fail(new Error('the branches waited for the dashboard')), 10_000).unref());
      const branches = JSON.parse(await Promise.race([runner.json(today(NOW), 'branches', { search: null, limit: 10 }), tooLong])) as { branches: unknown[] };
      expect(branches).toEqual({ branches: [] });
      expect(dashboardDone).toBe(false);
      await locker.query('COMMIT');
      const answer = JSON.parse(await dashboard) as { days: number; summary: unknown[] };
      expect(answer.days).toBe(7);
      expect(answer.summary).toHaveLength(1);
    } finally {
      await locker.end();
      await runner.close();
    }
  });
});
