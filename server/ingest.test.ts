import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildSqliteTestApp, signIn, smallReport, type SqliteTestApp } from '../fixtures/testing/app.js';
import { generateHistory } from './demo/history.js';
import { ownReports, publicReports } from '../fixtures/testing/public-reports.js';
import { makeTempDir } from '../fixtures/testing/temp.js';
import { normaliseReport } from '../core/report/normalise.js';
import { parseReportBytes } from '../core/report/parse.js';
import { hashRun, ingestBytes, ingestFile, ingestValue } from './ingest.js';
import { openStore } from './store/engine/open.js';
import type { Store } from './store/engine/types.js';

let temp: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  temp = makeTempDir('flakeboard-ingest-');
});
afterEach(() => temp.cleanup());

/** Everything a report leaves in the store, ids included, less the moment of the import. */
function dump(store: Store): unknown {
  const all = (sql: string) => store.sqlite.prepare(sql).all();
  return {
    runs: all('SELECT * FROM runs ORDER BY id').map((r) => ({ ...(r as object), uploaded_at: 0, reviewed_at: null })),
    tests: all('SELECT * FROM tests ORDER BY id'),
    results: all('SELECT * FROM results ORDER BY id'),
    attempts: all('SELECT * FROM attempts ORDER BY result_id, retry'),
    daily: all('SELECT * FROM daily_test_stats ORDER BY test_id, browser, day'),
    errors: all('SELECT * FROM daily_error_stats ORDER BY test_id, browser, day, fingerprint'),
  };
}

describe('a report read in parts is stored exactly as the report held whole', () => {
  it('file by file (read in chunks, from bytes, parsed whole): the same rows, rollups and content hash', () => {
    const files = [...publicReports(), ...ownReports()];
    for (const run of generateHistory({ seed: 11, runs: 3, tests: 30, days: 2 })) {
      const file = join(temp.dir, run.fileName);
      writeFileSync(file, JSON.stringify(run.report, null, 2));
      files.push(file);
    }
    const stores = ['file', 'bytes', 'value'].map((name) => openStore(join(temp.dir, `${name}.db`)));
    try {
      for (const file of files) {
        const bytes = readFileSync(file);
        const options = { fileName: basename(file), fallbackStartedAt: 1_700_000_000_000, approve: true };
        ingestFile(stores[0]!, file, options);
        ingestBytes(stores[1]!, bytes, options);
        const report = parseReportBytes(bytes, basename(file));
        ingestValue(stores[2]!, report, { ...options, fileSize: bytes.length });
        const hash = hashRun(normaliseReport(report));
        for (const store of stores) expect(store.sqlite.prepare('SELECT content_hash FROM runs ORDER BY id DESC LIMIT 1').pluck().get()).toBe(hash);
      }
      const [file, bytes, value] = stores.map(dump);
      expect(bytes).toEqual(file);
      expect(value).toEqual(file);
      // Enough to mean something with or without ../shared (our own and generated reports alone hold over 400).
      expect((file as { results: unknown[] }).results.length).toBeGreaterThan(400);
    } finally {
      for (const store of stores) void store.close();
    }
  });
});

describe('POST /api/upload refuses reports nested past the limits with a 400 and stores nothing', () => {
  let t: SqliteTestApp;
  afterEach(() => t.close());

  const post = async (testResults: string) => {
    const session = await signIn(t.app, 'max');
    return t.app.inject({
      method: 'POST',
      url: '/api/upload',
      headers: { ...session.headers, 'content-type': 'application/json' },
      payload: `{"testResults":${testResults},"metadata":{"fileName":"deep.json"}}`,
    });
  };
  const stored = () => t.store.sqlite.prepare('SELECT (SELECT count(*) FROM runs) + (SELECT count(*) FROM results) + (SELECT count(*) FROM tests)').pluck().get();

  it('suites nested 3,000 deep, steps 3,000 deep, arrays 100,000 deep in config.metadata', async () => {
    t = await buildSqliteTestApp();
    const suites = `{"config":{},"suites":[${'{"title":"d","suites":['.repeat(3000)}{}${']}'.repeat(3000)}]}`;
    const report = JSON.stringify(smallReport('deep'));
    const steps = report.replace('"duration":1200', `"duration":1200,"steps":${'[{"title":"s","steps":'.repeat(3000)}[]${'}]'.repeat(3000)}`);
    const metadata = report.replace('"version":"1.50.0"', `"version":"1.50.0","metadata":{"ci":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    const answers = [await post(suites), await post(steps), await post(metadata)];
    expect(answers.map((a) => a.statusCode)).toEqual([400, 400, 400]);
    expect(answers[0]!.json().error).toMatch(/^deep\.json: the report nests too deeply: "suites\[0\]\.suites\[0\].*" nests suites deeper than the limit of 100 levels$/);
    expect(answers[1]!.json().error).toMatch(/^deep\.json: the report nests too deeply: "suites\[0\]\.specs\[0\]\.tests\[0\]\.results\[0\]\.steps\[0\]….*" nests steps deeper than the limit of 100 levels$/);
    expect(answers[2]!.json().error).toMatch(/^deep\.json: the report nests too deeply: "config\.metadata\.ci\[0\].*" nests values deeper than the limit of 32 levels$/);
    expect(stored()).toBe(0);
    // And the server still takes a good report afterwards.
    expect((await post(report)).statusCode).toBe(200);
  });
});
