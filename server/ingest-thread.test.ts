import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addStepsAndErrors } from '../bench/import/steps-shape.js';
import { createTestTarget, describeEachEngine, type TestTarget } from '../fixtures/testing/engines.js';
import { ownReports, publicReports } from '../fixtures/testing/public-reports.js';
import { storedRows, writtenCounts } from '../fixtures/testing/stored-rows.js';
import { makeTempDir } from '../fixtures/testing/temp.js';
import { postgresText } from './store/engine/dialect.js';
import { InvalidReportError } from '../core/report/parse.js';
import { generateHistory } from './demo/history.js';
import { EvidenceCollector, storeBlobs, type CollectOptions } from './evidence/collect-import.js';
import type { FoundFile } from './evidence/report-files.js';
import { ingestFileCollecting, type IngestOptions } from './ingest.js';
import { READER_BATCH_TESTS, ReaderThread, readerThreads } from './ingest-thread.js';
import { FolderEvidenceStore } from './store/evidence/folder-store.js';
import type { AnyStore } from './store/engine/types.js';

const START = Date.UTC(2026, 0, 5, 12);
const options = (file: string, i: number): IngestOptions => ({
  fileName: basename(file),
  fallbackStartedAt: START + i * 60_000,
  fallbackGit: () => ({ branch: i % 2 === 0 ? 'main' : null, commit: null }),
  approve: true,
  evidence: () => {},
});

/** Evidence kept of failures; the generated reports' files are not there, so each is recorded as not found (no blob is stored). */
const collecting = (): CollectOptions => ({ mode: 'failures', maxBytes: 1024 * 1024, keep: () => Promise.reject(new Error('no blob expected')), onSkip: () => {} });

/** The attempts and attachments (storedRows leaves them out): steps, errors and evidence as stored. */
async function attemptRows(store: AnyStore): Promise<string[]> {
  const test = (alias: string) => `(SELECT t.file || ' › ' || t.title_path || ' ' || x.browser || ' ' || x.repeat_index || ' ' || r.file_name FROM results x JOIN tests t ON t.id = x.test_id JOIN runs r ON r.id = x.run_id WHERE x.id = ${alias}.result_id)`;
  const attempts = await store.sql.all<Record<string, unknown>>(`SELECT ${test('a')} AS test, retry, status, duration_ms, started_at, error_message, other_errors_json, steps_json, stdout, stderr, attachments_json FROM attempts a`);
  const attachments = await store.sql.all<Record<string, unknown>>(`SELECT ${test('e')} AS test, retry, ordinal, kind, sha256, size, state FROM attachments e`);
  const text = (row: Record<string, unknown>) => JSON.stringify(Object.values(row).map((v) => (typeof v === 'string' ? postgresText(v) : v)));
  return [...attempts.map(text), ...attachments.map(text)].sort();
}

describeEachEngine('an import read in a thread of its own', (engine) => {
  let temp: ReturnType<typeof makeTempDir>;
  let targets: TestTarget[] = [];
  const reports: string[] = [];
  beforeAll(() => {
    temp = makeTempDir('flakeboard-ingest-thread-');
    // Generated reports large enough for many batches, one with steps on every attempt and Playwright's error fields.
    for (const [i, run] of [...generateHistory({ seed: 3, runs: 2, days: 1, tests: Math.ceil((READER_BATCH_TESTS * 5) / 4) })].entries()) {
      if (i === 0) addStepsAndErrors(run.report);
      const file = join(temp.dir, `generated-${i}.json`);
      writeFileSync(file, JSON.stringify(run.report, null, i === 0 ? 2 : undefined));
      reports.push(file);
    }
    reports.push(...publicReports(), ...ownReports());
  });
  afterAll(async () => {
    for (const target of targets) await target.remove();
    targets = [];
    temp.cleanup();
  });

  const open = async () => {
    const target = await createTestTarget(engine);
    targets.push(target);
    return target.open();
  };

  async function importAll(thread: boolean): Promise<{ rows: unknown; attempts: string[] }> {
    const store = await open();
    try {
      for (const [i, file] of reports.entries()) await ingestFileCollecting(store, file, options(file, i), new EvidenceCollector(file, collecting()), [], thread);
      // The same report again: a duplicate, found by the content's hash the reader thread computed.
      await ingestFileCollecting(store, reports[0]!, options(reports[0]!, reports.length), null, [], thread);
      return { rows: await storedRows(store), attempts: await attemptRows(store) };
    } finally {
      await store.close();
    }
  }

  it('stores the same rows as reading on the writing thread, and leaves no thread behind', async () => {
    const inline = await importAll(false);
    const threaded = await importAll(true);
    expect(readerThreads()).toBe(0);
    expect(threaded.rows).toEqual(inline.rows);
    expect(threaded.attempts).toEqual(inline.attempts);
    expect((inline.rows as { runs: string[] }).runs.filter((r) => r.includes('generated-0.json'))).toHaveLength(2);
    expect(inline.attempts.some((row) => row.includes('"steps'))).toBe(true);
  });

  /**
   * A report of a few batches of failing tests, each naming a file that is there (one of a few,
   * so some are stored once and seen again), one that is not, /etc/passwd, a link out of the
   * folder, and a body.
   */
  function reportWithFiles(): string {
    const dir = join(temp.dir, 'with-files');
    const out = join(dir, 'test-results');
    mkdirSync(out, { recursive: true });
    for (let i = 0; i < 5; i++) writeFileSync(join(out, `shot-${i}.png`), `fake png ${i}`);
    symlinkSync('/etc/hostname', join(out, 'link.png'));
    const specs = Array.from({ length: READER_BATCH_TESTS + 20 }, (_, i) => {
      const attachments = [
        { name: 'screenshot', contentType: 'image/png', path: join(out, `shot-${i % 5}.png`) },
        { name: 'gone', contentType: 'image/png', path: `test-results/gone-${i}.png` },
        { name: 'passwd', contentType: 'text/plain', path: '/etc/passwd' },
        { name: 'link', contentType: 'image/png', path: 'test-results/link.png' },
        { name: 'note', contentType: 'text/plain', body: Buffer.from(`note ${i}`).toString('base64') },
      ];
      const results = [{ retry: 0, status: 'failed', duration: 5, startTime: '2026-01-05T10:00:00.000Z', attachments, errors: [{ message: 'Error: boom' }] }];
      return { title: `fails ${i}`, file: 'a.spec.ts', line: 1, column: 1, tests: [{ projectName: 'chromium', expectedStatus: 'passed', results }] };
    });
    const file = join(dir, 'report.json');
    writeFileSync(file, JSON.stringify({ config: { version: '1.50.0', projects: [{ name: 'chromium', outputDir: out }] }, suites: [{ title: 'a.spec.ts', file: 'a.spec.ts', specs }], errors: [] }));
    return file;
  }

  it('looks for attachment files in the reader thread, stores what reading inline stores, and still reads nothing outside the folders', async () => {
    const file = reportWithFiles();
    // What the reader thread hands over: each kept attachment's file, looked for there.
    const thread = new ReaderThread(file, 'report.json', { reportPath: file, mode: 'failures' });
    const found: FoundFile[] = [];
    try {
      for (let message = await thread.next(); message.kind !== 'end'; message = await thread.next()) {
        if (message.kind === 'tests') for (const [, , files] of message.sources) found.push(...files.flat().filter((f) => f !== null));
      }
    } finally {
      await thread.close();
    }
    expect(found).toHaveLength((READER_BATCH_TESTS + 20) * 4);
    expect(found.filter((f) => 'path' in f && f.path.endsWith('.png'))).toHaveLength(READER_BATCH_TESTS + 20);
    expect(found.filter((f) => 'problem' in f && f.problem === 'missing')).toHaveLength(READER_BATCH_TESTS + 20);
    expect(found.filter((f) => 'problem' in f && f.problem === 'outside')).toHaveLength((READER_BATCH_TESTS + 20) * 2);

    const importOnce = async (inThread: boolean) => {
      const store = await open();
      const skipped: string[] = [];
      const evidence = join(temp.dir, `evidence-${inThread}`);
      try {
        const collector = new EvidenceCollector(file, { mode: 'failures', maxBytes: 1024 * 1024, keep: storeBlobs(store, new FolderEvidenceStore(evidence)), onSkip: (line) => skipped.push(line) });
        await ingestFileCollecting(store, file, options(file, 0), collector, [], inThread);
        return { attempts: await attemptRows(store), summary: collector.summary, skipped };
      } finally {
        await store.close();
      }
    };
    const inline = await importOnce(false);
    const threaded = await importOnce(true);
    expect(readerThreads()).toBe(0);
    expect(threaded).toEqual(inline);
    // A path seen before is answered as it was, skipped once: /etc/passwd and the link out are one line each.
    expect(inline.summary).toMatchObject({ written: 5 + READER_BATCH_TESTS + 20, skipped: READER_BATCH_TESTS + 20 + 2 });
    expect(inline.skipped.filter((line) => line.includes('is outside the report'))).toHaveLength(2);
    const states = (state: string) => inline.attempts.filter((row) => row.endsWith(`"${state}"]`)).length;
    expect([states('stored'), states('not-found')]).toEqual([(READER_BATCH_TESTS + 20) * 2, (READER_BATCH_TESTS + 20) * 3]);
  });

  it('stores nothing of a report invalid in the middle, names the problem, and ends the thread', async () => {
    const store = await open();
    try {
      const report = JSON.parse(JSON.stringify(generateHistory({ seed: 4, runs: 1, days: 1, tests: READER_BATCH_TESTS * 2 }).next().value!.report)) as { suites: Array<{ specs: Array<{ tests: Array<{ results: Array<{ stdout: unknown }> }> }> }> };
      // A file suite past the first batches: the writer has stored tests of the run before the reader meets it.
      const bad = report.suites[Math.floor(report.suites.length * 0.75)]!;
      bad.specs[0]!.tests[0]!.results[0]!.stdout = 'exploded';
      const file = join(temp.dir, 'bad-in-the-middle.json');
      writeFileSync(file, JSON.stringify(report, null, 2));
      const error = await ingestFileCollecting(store, file, options(file, 0), null, [], true).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidReportError);
      expect((error as Error).message).toContain('bad-in-the-middle.json');
      expect((error as Error).message).toMatch(/stdout/);
      expect(readerThreads()).toBe(0);
      const counts = await writtenCounts(store);
      expect(Object.values(counts).every((n) => n === 0)).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('carries a file error over with its code, and ends the thread', async () => {
    const store = await open();
    try {
      // A folder: found, then unreadable in the reader thread.
      const folder = join(temp.dir, 'a-folder.json');
      mkdirSync(folder);
      const error = await ingestFileCollecting(store, folder, options(folder, 0), null, [], true).catch((e: unknown) => e);
      expect((error as NodeJS.ErrnoException).code).toBe('EISDIR');
      expect(readerThreads()).toBe(0);
    } finally {
      await store.close();
    }
  });
});
