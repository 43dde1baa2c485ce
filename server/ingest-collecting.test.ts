import { mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateHistory } from './demo/history.js';
import { ownReports, publicReports } from '../fixtures/testing/public-reports.js';
import { makeTempDir } from '../fixtures/testing/temp.js';
import { collectImportEvidence, EvidenceCollector, storeBlobs, type CollectOptions } from './evidence/collect-import.js';
import { ingestFile, ingestFileCollecting } from './ingest.js';
import type { NormalisedTest } from '../core/report/normalised.js';
import { openStore } from './store/engine/open.js';
import type { Store } from './store/engine/types.js';
import type { BlobRow } from './store/evidence/blob-rows.js';
import { FolderEvidenceStore } from './store/evidence/folder-store.js';

let temp: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  temp = makeTempDir('flakeboard-ingest-collecting-');
});
afterEach(() => temp.cleanup());

function dump(store: Store): unknown {
  const all = (sql: string) => store.sqlite.prepare(sql).all();
  return {
    runs: all('SELECT * FROM runs ORDER BY id').map((r) => ({ ...(r as object), uploaded_at: 0, reviewed_at: null })),
    tests: all('SELECT * FROM tests ORDER BY id'),
    results: all('SELECT * FROM results ORDER BY id'),
    attempts: all('SELECT * FROM attempts ORDER BY result_id, retry'),
    attachments: all('SELECT * FROM attachments ORDER BY result_id, retry, ordinal'),
    blobs: all('SELECT sha256, size, content_type, failing FROM evidence_blobs ORDER BY sha256'),
    daily: all('SELECT * FROM daily_test_stats ORDER BY test_id, browser, day'),
    errors: all('SELECT * FROM daily_error_stats ORDER BY test_id, browser, day, fingerprint'),
  };
}

/** The collector's settings for a store, its skipped lines kept in `skipped`. */
function settings(store: Store, dir: string, skipped: string[]): CollectOptions {
  return { mode: 'failures', maxBytes: 1024 * 1024, keep: storeBlobs(store, new FolderEvidenceStore(dir)), onSkip: (line) => skipped.push(line) };
}

/** A report whose one failing test names a screenshot that is there, and one that is not. */
function reportWithFiles(): string {
  const out = join(temp.dir, 'test-results');
  mkdirSync(out, { recursive: true });
  const shot = join(out, 'shot.png');
  writeFileSync(shot, 'fake png');
  const attachments = [
    { name: 'screenshot', contentType: 'image/png', path: shot },
    { name: 'gone', contentType: 'image/png', path: join(out, 'gone.png') },
    { name: 'note', contentType: 'text/plain', body: Buffer.from('hello').toString('base64') },
  ];
  const results = [{ retry: 0, status: 'failed', duration: 5, startTime: '2026-01-05T10:00:00.000Z', attachments, errors: [{ message: 'Error: boom' }] }];
  const specs = [{ title: 'fails', file: 'a.spec.ts', line: 1, column: 1, tests: [{ projectName: 'chromium', expectedStatus: 'passed', results }] }];
  const file = join(temp.dir, 'report.json');
  writeFileSync(file, JSON.stringify({ config: { version: '1.50.0', projects: [{ name: 'chromium', outputDir: out }] }, suites: [{ title: 'a.spec.ts', file: 'a.spec.ts', specs }], errors: [] }));
  return file;
}

describe('ingestFileCollecting: evidence collected in the same pass as the run', () => {
  it('stores the rows the two passes (collectImportEvidence, then ingestFile) store, duplicates included', async () => {
    const files = [...publicReports(), ...ownReports(), reportWithFiles()];
    // Generated reports name a screenshot, a video and an error context per failed attempt, at paths that are not here;
    // 600 tests × 4 browsers pass the progress report (every 2,000 tests).
    const [big] = generateHistory({ seed: 5, runs: 1, tests: 600, days: 1 });
    const bigFile = join(temp.dir, big!.fileName);
    writeFileSync(bigFile, JSON.stringify(big!.report));
    files.push(bigFile, bigFile);
    const once = openStore(join(temp.dir, 'once.db'));
    const twice = openStore(join(temp.dir, 'twice.db'));
    const onceSkipped: string[] = [];
    const twiceSkipped: string[] = [];
    const progress: number[] = [];
    try {
      for (const file of files) {
        const options = { fileName: basename(file), fallbackStartedAt: 1_700_000_000_000, approve: true };
        const collected = await collectImportEvidence(file, file, settings(twice, join(temp.dir, 'twice-evidence'), twiceSkipped));
        const before = ingestFile(twice, file, { ...options, evidence: collected.resolve });
        const rows: BlobRow[] = [];
        const collector = new EvidenceCollector(file, { ...settings(once, join(temp.dir, 'once-evidence'), onceSkipped), keep: storeBlobs(once, new FolderEvidenceStore(join(temp.dir, 'once-evidence')), Date.now, rows) });
        const after = await ingestFileCollecting(once, file, { ...options, evidence: () => {}, onProgress: (done) => progress.push(done) }, collector, rows);
        expect(after).toEqual(before);
        expect(collector.summary).toEqual(collected.summary);
      }
      expect(dump(once)).toEqual(dump(twice));
      expect(onceSkipped).toEqual(twiceSkipped);
      const states = once.sqlite.prepare('SELECT state, count(*) AS n FROM attachments GROUP BY state ORDER BY state').all();
      expect(states).toEqual(expect.arrayContaining([{ state: 'not-found', n: expect.any(Number) }, { state: 'stored', n: 2 }]));
      // The second import of the generated report is a duplicate: its results rolled back, the blob rows kept.
      expect(once.sqlite.prepare('SELECT count(*) FROM runs WHERE is_duplicate = 1').pluck().get()).toBe(1);
      expect(once.sqlite.prepare('SELECT count(*) FROM evidence_blobs').pluck().get()).toBe(2);
      expect(progress.length).toBeGreaterThan(0);
      expect(once.sqlite.inTransaction).toBe(false);
    } finally {
      await once.close();
      await twice.close();
    }
  });

  it('a duplicate keeps the blob rows its evidence stored', async () => {
    const file = reportWithFiles();
    const store = openStore(join(temp.dir, 'dup.db'));
    try {
      for (let i = 0; i < 2; i++) {
        const rows: BlobRow[] = [];
        const collector = new EvidenceCollector(file, { ...settings(store, join(temp.dir, 'ev'), []), keep: storeBlobs(store, new FolderEvidenceStore(join(temp.dir, 'ev')), Date.now, rows) });
        const result = await ingestFileCollecting(store, file, { fileName: 'report.json', evidence: () => {} }, collector, rows);
        expect(result.duplicate).toBe(i === 1);
      }
      expect(store.sqlite.prepare('SELECT count(*) FROM results').pluck().get()).toBe(1);
      expect(store.sqlite.prepare('SELECT count(*) FROM evidence_blobs WHERE failing = 1').pluck().get()).toBe(2);
    } finally {
      await store.close();
    }
  });

  it('a report refused after blobs were put stores no run; the blobs keep their rows, unreferenced, for the sweep', async () => {
    const file = reportWithFiles();
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace(/"errors":\[\]\}$/, '"errors":[,]}'));
    const store = openStore(join(temp.dir, 'refused.db'));
    try {
      const rows: BlobRow[] = [];
      const collector = new EvidenceCollector(file, { ...settings(store, join(temp.dir, 'ev'), []), keep: storeBlobs(store, new FolderEvidenceStore(join(temp.dir, 'ev')), Date.now, rows) });
      await expect(ingestFileCollecting(store, file, { fileName: 'report.json' }, collector, rows)).rejects.toThrow(/^report\.json: invalid JSON/);
      for (const table of ['runs', 'results', 'tests', 'attachments']) expect(store.sqlite.prepare(`SELECT count(*) FROM ${table}`).pluck().get()).toBe(0);
      expect(store.sqlite.prepare('SELECT count(*) FROM evidence_blobs').pluck().get()).toBe(2);
      expect(store.sqlite.inTransaction).toBe(false);
    } finally {
      await store.close();
    }
  });

  it('a report that turns out not to be JSON past its first tests stores nothing, blob rows included, and names the place', async () => {
    const [run] = generateHistory({ seed: 7, runs: 1, tests: 400, days: 1 });
    const text = JSON.stringify(run!.report, null, 1);
    const file = join(temp.dir, 'cut.json');
    writeFileSync(file, `${text.slice(0, Math.floor(text.length * 0.9))},,]}`);
    const store = openStore(join(temp.dir, 'cut.db'));
    try {
      const rows: BlobRow[] = [];
      const collector = new EvidenceCollector(file, { ...settings(store, join(temp.dir, 'ev'), []), keep: storeBlobs(store, new FolderEvidenceStore(join(temp.dir, 'ev')), Date.now, rows) });
      await expect(ingestFileCollecting(store, file, { fileName: 'cut.json' }, collector, rows)).rejects.toThrow(/^cut\.json: invalid JSON: .* at line \d+/);
      for (const table of ['runs', 'results', 'tests', 'attachments', 'evidence_blobs', 'daily_test_stats']) expect(store.sqlite.prepare(`SELECT count(*) FROM ${table}`).pluck().get()).toBe(0);
      expect(store.sqlite.inTransaction).toBe(false);
    } finally {
      await store.close();
    }
  });

  it('looks for a file handed over as found again before reading it: one replaced by a link out since is not read', async () => {
    const file = reportWithFiles();
    const shot = join(temp.dir, 'test-results', 'shot.png');
    const store = openStore(join(temp.dir, 'swapped.db'));
    try {
      const skipped: string[] = [];
      const kept: string[] = [];
      const collector = new EvidenceCollector(file, { ...settings(store, join(temp.dir, 'ev'), skipped), keep: async (sha256) => (kept.push(sha256), 'written') });
      collector.setConfig({ projects: [{ name: 'chromium', outputDir: join(temp.dir, 'test-results') }] });
      const test = { titlePath: ['fails'], projectName: 'chromium', browser: 'chromium', outcome: 'unexpected', attempts: [] } as unknown as NormalisedTest;
      const results = [{ attachments: [{ name: 'screenshot', contentType: 'image/png', path: shot }] }];
      // What the reader thread found, then the file swapped for a link to a file outside the folders.
      const found = collector.finder.find(test, results)!;
      expect(found).toEqual([[{ path: shot, size: 8 }]]);
      renameSync(shot, `${shot}.old`);
      symlinkSync('/etc/hostname', shot);
      expect(await collector.collect(test, results, found)).toEqual([[{ kind: 'screenshot', sha256: null, size: null, state: 'not-found' }]]);
      expect(kept).toEqual([]);
      expect(skipped).toEqual([expect.stringContaining('is outside the report\'s folder and its output folders: not read')]);
    } finally {
      await store.close();
    }
  });
});
