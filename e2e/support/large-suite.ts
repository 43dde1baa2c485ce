/** A suite larger than one page of every list: generated reports written once per worker and imported per test. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateHistory } from '../../server/demo/history.js';
import type { StartOptions } from './fixtures.js';

let written: string[] | null = null;

/** 6 reports of 400 tests on 4 browsers over 6 days, ending now: well over 50 flaky groups and slow tests. */
export function largeSuite(): StartOptions {
  if (!written) {
    const dir = mkdtempSync(join(tmpdir(), 'flakeboard-e2e-large-'));
    mkdirSync(dir, { recursive: true });
    written = [];
    for (const run of generateHistory({ seed: 41, runs: 6, days: 6, tests: 400, endDate: Date.now() })) {
      const path = join(dir, run.fileName);
      writeFileSync(path, JSON.stringify(run.report));
      written.push(path);
    }
  }
  return { template: 'empty', imports: [{ paths: written, approve: true }] };
}
