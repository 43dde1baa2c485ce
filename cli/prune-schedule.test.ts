import { readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { withStore } from '../fixtures/testing/store.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli } from '../fixtures/testing/cli.js';
import { writeHistory } from '../fixtures/testing/live-serve.js';
import { makeTempDir } from '../fixtures/testing/temp.js';
import { scheduleDailyPrune } from './prune-schedule.js';

let temp: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  temp = makeTempDir('flakeboard-schedule-');
});
afterEach(() => temp.cleanup());

const DAY = 86_400_000;

describe('scheduleDailyPrune', () => {
  it('prunes at once and again each period, through the built binary, logging each', async () => {
    const db = join(temp.dir, 'f.db');
    const reports = writeHistory(temp.dir, { seed: 3, runs: 8, days: 80, tests: 10, browsers: ['chromium'], endDate: Date.now() });
    const old = reports.filter((r) => r.startedAt < Date.now() - 30 * DAY);
    expect(old.length).toBeGreaterThan(2);
    await runCli(['import', '--db', db, ...reports.map((r) => r.file)], { env: cleanEnv() });

    const infos: string[] = [];
    const errors: string[] = [];
    const removed = (from: number) => infos.slice(from).reduce((n, line) => n + Number(/removed (\d+) runs/.exec(line)?.[1] ?? 0), 0);
    const waitFor = async (done: () => boolean) => {
      const deadline = Date.now() + 30_000;
      while (!done() && errors.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    };
    // A period of 3 s stands for 24 hours.
    const schedule = scheduleDailyPrune({ dbPath: db, olderThan: '30d', every: 3000, bin: BIN, log: { info: (m) => infos.push(m), error: (m) => errors.push(m) } });
    try {
      await waitFor(() => infos.length >= 1);
      expect(infos[0]).toMatch(new RegExp(`^prune --older-than 30d: removed ${old.length} runs started before \\S+ \\(${old.length * 10} results, \\d+ attempts\\)$`));
      // Old runs arrive again (their originals are gone, so they are stored, not duplicates).
      await runCli(['import', '--db', db, ...old.map((r) => r.file)], { env: cleanEnv() });
      // A period may also fall while they are being imported: count what the later runs removed.
      await waitFor(() => removed(1) >= old.length);
      expect(errors).toEqual([]);
      expect(infos.length).toBeGreaterThanOrEqual(2);
      expect(removed(1)).toBe(old.length);
      // The audit trail names the server, not the account that started it.
      const prunes = await withStore(db, (store) => store.sqlite.prepare(`SELECT actor_kind, source FROM audit_log WHERE action = 'runs.prune'`).all());
      expect(prunes.length).toBeGreaterThanOrEqual(2);
      for (const row of prunes) expect(row).toEqual({ actor_kind: 'system', source: `serve on ${hostname()}` });
    } finally {
      schedule.stop();
    }
  });

  it('gives the prune a PostgreSQL URL in its environment, never on its command line (where ps shows the password)', async () => {
    // A stand-in for the binary that writes down how it was started, and answers as prune does.
    const bin = join(temp.dir, 'fake-flakeboard.mjs');
    const seen = join(temp.dir, 'seen.json');
    writeFileSync(
      bin,
      `import { writeFileSync } from 'node:fs';
      writeFileSync(${JSON.stringify(seen)}, JSON.stringify({ args: process.argv.slice(2), url: process.env.FLAKEBOARD_DATABASE_URL ?? null, file: process.env.FLAKEBOARD_DB ?? null }));
      console.log(JSON.stringify({ runs: 0, results: 0, attempts: 0, reclaimedBytes: 0, before: 'then' }));`,
    );
    const url = 'postgres://fb:s3cret-pw@db.example:5432/flakeboard';
    const infos: string[] = [];
    const previous = process.env.FLAKEBOARD_DB;
    // serve may have got a file setting from its environment too: the child must not see both.
    process.env.FLAKEBOARD_DB = 'ignored.db';
    const schedule = scheduleDailyPrune({ dbPath: url, olderThan: '30d', every: 60_000, bin, log: { info: (m) => infos.push(m), error: (m) => infos.push(m) } });
    try {
      const deadline = Date.now() + 30_000;
      while (infos.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(JSON.parse(readFileSync(seen, 'utf8'))).toEqual({ args: ['prune', '--older-than', '30d', '--yes', '--json'], url, file: null });
      expect(infos).toEqual(['prune --older-than 30d: removed 0 runs started before then (0 results, 0 attempts)']);
    } finally {
      schedule.stop();
      if (previous === undefined) delete process.env.FLAKEBOARD_DB;
      else process.env.FLAKEBOARD_DB = previous;
    }
  });
});
