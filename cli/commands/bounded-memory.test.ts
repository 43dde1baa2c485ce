import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../fixtures/testing/app.js';
import { cleanEnv, runCli } from '../../fixtures/testing/cli.js';
import { withStore } from '../../fixtures/testing/store.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';
import { generateHistory } from '../../server/demo/history.js';
import { API_TOKEN_PREFIX, hashToken, newToken } from '../../server/auth/tokens.js';
import { createApiToken } from '../../server/store/accounts/api-tokens.js';

/**
 * Bounded memory: `import` and `upload` once held a whole report (its text, then its objects, then
 * for `upload` its re-serialised text). Measured without timing: the built binary runs with a
 * JavaScript heap of 56 MB, which a 17 MB report read whole overflows (it needed more than 64 MB
 * before this change) and a report read one file suite at a time does not.
 */
const HEAP = { NODE_OPTIONS: '--max-old-space-size=56' };

let temp: ReturnType<typeof makeTempDir>;
let report: string;
let results = 0;

beforeAll(() => {
  temp = makeTempDir('flakeboard-memory-');
  const [run] = [...generateHistory({ seed: 4, runs: 1, days: 1, tests: 3000 })];
  const text = JSON.stringify(run!.report);
  expect(text.length).toBeGreaterThan(15_000_000);
  report = join(temp.dir, 'big.json');
  writeFileSync(report, text);
  results = 3000 * 4;
});
afterAll(() => temp.cleanup());

describe('a big report is never held whole', () => {
  it('import stores it in a 56 MB heap', async () => {
    const db = join(temp.dir, 'import.db');
    const { exitCode, stdout, stderr } = await runCli(['import', report, '--db', db, '--json'], { env: cleanEnv(HEAP) });
    expect(stderr).toBe('');
    expect(exitCode).toBe(0);
    const [outcome] = JSON.parse(stdout) as Array<{ tests: number; error?: string }>;
    expect(outcome?.error).toBeUndefined();
    expect(outcome?.tests).toBe(results);
    expect(await withStore(db, (s) => s.sqlite.prepare('SELECT count(*) FROM results').pluck().get())).toBe(results);
  });

  it('upload checks and streams it in a 56 MB heap', async () => {
    const t: TestApp = await buildTestApp({ bodyLimit: 100 * 1024 * 1024 });
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const token = newToken(API_TOKEN_PREFIX);
      await createApiToken(t.store, { name: 'ci', tokenHash: hashToken(token), userId: 3 });
      const server = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      const { exitCode, stdout, stderr } = await runCli(['upload', report, '--server', server, '--token', token], { env: cleanEnv(HEAP) });
      // The report names screenshots and traces under a CI runner's folders, which are not here:
      // ten lines name the first, one counts the rest; nothing else is said.
      const lines = stderr.split('\n').filter((line) => line !== '');
      expect(lines.every((line) => line.startsWith('  evidence: skipped '))).toBe(true);
      expect(lines.length).toBeLessThanOrEqual(11);
      expect(exitCode).toBe(0);
      expect(stdout).toMatch(new RegExp(`^✓ .*big\\.json: ${results} tests uploaded as run 1`));
    } finally {
      await t.close();
    }
  });
});
