import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { emitCanonicalContent } from '../core/report/canonical.js';
import type { RunSummary } from '../core/report/normalise.js';
import type { NormalisedRun, NormalisedTest, RunCounts } from '../core/report/normalised.js';
import { checkedPartsOf, readReportParts, type ReportPart } from '../core/report/read-report.js';
import { attachmentKind } from '../core/api/attachments.js';
import type { FoundFiles, SourceResults } from './evidence/attachment-lookups.js';
import { setEvidence, type EvidenceCollector } from './evidence/collect-import.js';
import type { EvidenceResolver } from './evidence/entries.js';
import { recordBlob, type BlobRow } from './store/evidence/blob-rows.js';
import type { PwConfig, PwTest } from '../core/report/playwright-types.js';
import { OwnersCollector, type FileOwners } from '../core/owners/test-owners.js';
import { byteChunks, decodeChunks } from './report-text.js';
import { estimateTotal, fileParts, normaliseParts } from './ingest-read.js';
import { ReaderThread, READER_THREAD_MIN_BYTES } from './ingest-thread.js';
import type { AnyStore, Store, PostgresStore } from './store/engine/types.js';
import { writeRunInParts, writeRunInPartsAsync, type RunEnding, type RunHeader, type StoredRun } from './store/write/write-run.js';
import { writeRunPostgres } from './store/write/write-run-postgres.js';

/** What the importer needs besides the report: the same for the CLI and POST /api/upload. */
export interface IngestOptions {
  /** The file, as errors name it; also what the run is called unless `runName` is given. */
  fileName: string;
  /** What the run is called in the review list and recent uploads ('web · main · build 812'). */
  runName?: string | null;
  fileSize?: number | null;
  /** Flags or form fields; a report's own metadata fills what they leave out. */
  project?: string | null;
  gitBranch?: string | null;
  gitCommit?: string | null;
  /** The CI build (checked by the caller: checkBuild in core/ci-env.ts); shards of one build share it. */
  buildId?: string | null;
  buildUrl?: string | null;
  /** Used when neither the flags nor the report name a branch or commit (CI env, git). */
  fallbackGit?: () => { branch: string | null; commit: string | null };
  fallbackStartedAt?: number;
  approve?: boolean;
  uploadedBy?: number | null;
  /** Who or what stored it when no signed-in user did: 'token NAME', 'reporter on HOST', 'import on HOST'. */
  uploadedVia?: string | null;
  /**
   * The CODEOWNERS owners of the report's test files, given the report's rootDir (test files are
   * relative to it); null or absent: no CODEOWNERS was read, and the owners stored before stay.
   * Resolved where the checkout is (the CLI): the server never reads a file a report names.
   */
  ownersFor?: (rootDir: string | null) => FileOwners | null;
  /** Tests stored so far, and the total (an estimate while a file is still being read). */
  onProgress?: (stored: number, total: number) => void;
  /**
   * Sets each test's evidence (the CLI's import, after collectImportEvidence stored the blobs).
   * Without it, an attachment that names a `sha256` (an upload, whose bytes were sent first) is
   * recorded as stored if the server holds that blob, and as not stored if not.
   */
  evidence?: EvidenceResolver;
}

export interface IngestResult extends RunCounts {
  runId: number;
  duplicate: boolean;
  duplicateOf: number | null;
  /** approved when stored with `approve` (and not a duplicate), else pending. */
  status: StoredRun['status'];
  browser: string;
  project: string | null;
  loadFailed: boolean;
  loadError: string | null;
}

const PROGRESS_EVERY = 2000;

/**
 * Imports a report file, read in chunks and stored a file suite at a time: memory follows the
 * largest suite, not the report (a 300 MB report never becomes one string or one object).
 * On SQLite synchronous (one IMMEDIATE transaction, as it always was); on PostgreSQL a promise.
 */
export function ingestFile(store: Store, path: string, options: IngestOptions): IngestResult;
export function ingestFile(store: PostgresStore, path: string, options: IngestOptions): Promise<IngestResult>;
export function ingestFile(store: AnyStore, path: string, options: IngestOptions): IngestResult | Promise<IngestResult>;
export function ingestFile(store: AnyStore, path: string, options: IngestOptions): IngestResult | Promise<IngestResult> {
  const { parts, size, bytesRead } = fileParts(path, options.fileName);
  return ingestParts(store, parts, { ...options, fileSize: options.fileSize ?? size }, (stored) => estimateTotal(stored, bytesRead(), size));
}

/**
 * ingestFile for the CLI's import, with evidence if `collector`: in the same one pass over the
 * report, each test's attachments are found and their blobs stored before the test is written,
 * and the run commits after them, so a stored run never names a blob that is not there.
 * `blobRows`: the rows the collector's sink recorded (storeBlobs); on SQLite they are in the
 * run's transaction, so a duplicate, whose results roll back, records them again.
 * `thread`: read the report in a thread of its own while this one writes (ingest-thread.ts);
 * by default for reports of READER_THREAD_MIN_BYTES or more.
 */
export async function ingestFileCollecting(
  store: AnyStore,
  path: string,
  options: IngestOptions,
  collector: EvidenceCollector | null,
  blobRows: readonly BlobRow[],
  thread?: boolean,
): Promise<IngestResult> {
  const size = statSync(path).size;
  const withSize = { ...options, fileSize: options.fileSize ?? size };
  let ending: RunEnding | undefined;
  const inThread = thread ?? size >= READER_THREAD_MIN_BYTES;
  const read = async (addTest: AddTest): Promise<RunEnding> =>
    (ending = await (inThread ? readInThread(path, withSize, size, collector, addTest) : readInline(path, withSize, collector, addTest)));
  const header = runHeader(withSize);
  try {
    const stored =
      store.dialect === 'postgres'
        ? await writeRunPostgres(store, header, read)
        : await writeRunInPartsAsync(store, header, read, async () => {
            for (const row of blobRows) await recordBlob(store, row);
          });
    return resultOf(stored, ending!);
  } catch (error) {
    // The run rolled back; the blobs already put stay in the store. Their rows (rolled back
    // with it on SQLite) let the sweep remove them once unreferenced, instead of leaving orphans.
    if (store.dialect === 'sqlite') {
      for (const row of blobRows) await recordBlob(store, row).catch(() => {});
    }
    throw error;
  }
}

type AddTest = (test: NormalisedTest) => Promise<void> | void;

/**
 * A test's evidence found and set, if the collector keeps its attachments (`results`: its
 * attempts as the report has them; `found`: what was found of their files where it was read).
 */
async function collectEvidence(collector: EvidenceCollector | null, test: NormalisedTest, results: SourceResults | undefined, found: FoundFiles | null | undefined): Promise<void> {
  if (!collector || !results || !found) return;
  const evidence = await collector.collect(test, results, found);
  if (evidence) setEvidence(test, evidence);
}

/** The report read on this thread, between the writes. */
async function readInline(path: string, options: IngestOptions, collector: EvidenceCollector | null, addTest: AddTest): Promise<RunEnding> {
  const { parts, size, bytesRead } = fileParts(path, options.fileName);
  const tests = readRun(parts, options, (stored) => estimateTotal(stored, bytesRead(), size), collector !== null, (config) => collector?.setConfig(config));
  for (;;) {
    const next = tests.next();
    if (next.done) {
      collector?.finish();
      return next.value;
    }
    const [test, source] = next.value;
    await collectEvidence(collector, test, source?.results, source && collector?.finder.find(test, source.results));
    await addTest(test);
  }
}

/** The report read, checked and normalised in the reader thread while this one writes; the thread ended on every path. */
async function readInThread(path: string, options: IngestOptions, size: number, collector: EvidenceCollector | null, addTest: AddTest): Promise<RunEnding> {
  const thread = new ReaderThread(path, options.fileName, collector && collector.mode !== 'none' ? { reportPath: collector.reportPath, mode: collector.mode } : null);
  let bytesRead = 0;
  const taken = new TakenTests(options, (stored) => estimateTotal(stored, bytesRead, size));
  try {
    for (;;) {
      const message = await thread.next();
      if (message.kind === 'config') {
        taken.config(message.config);
        collector?.setConfig(message.config);
      } else if (message.kind === 'tests') {
        bytesRead = message.bytesRead;
        const { tests, sources } = message;
        let source = 0;
        for (let i = 0; i < tests.length; i++) {
          const test = tests[i]!;
          taken.take(test);
          const kept = sources[source]?.[0] === i ? sources[source++] : undefined;
          await collectEvidence(collector, test, kept?.[1], kept?.[2]);
          await addTest(test);
          taken.counted();
        }
      } else if (message.kind === 'end') {
        collector?.finish();
        return taken.ending(message.run, message.contentHash);
      }
    }
  } finally {
    await thread.close();
  }
}

/** Imports report bytes as read from a file (any encoding decodeReportBytes knows), in parts. */
export function ingestBytes(store: Store, bytes: Uint8Array, options: IngestOptions): IngestResult;
export function ingestBytes(store: PostgresStore, bytes: Uint8Array, options: IngestOptions): Promise<IngestResult>;
export function ingestBytes(store: AnyStore, bytes: Uint8Array, options: IngestOptions): IngestResult | Promise<IngestResult>;
export function ingestBytes(store: AnyStore, bytes: Uint8Array, options: IngestOptions): IngestResult | Promise<IngestResult> {
  const chunks = () => decodeChunks(byteChunks(bytes));
  return ingestParts(store, readReportParts(chunks, options.fileName), { ...options, fileSize: options.fileSize ?? bytes.length });
}

/** Imports an already-parsed value (an upload body's testResults), checked first. */
export function ingestValue(store: Store, value: unknown, options: IngestOptions): IngestResult;
export function ingestValue(store: PostgresStore, value: unknown, options: IngestOptions): Promise<IngestResult>;
export function ingestValue(store: AnyStore, value: unknown, options: IngestOptions): IngestResult | Promise<IngestResult>;
export function ingestValue(store: AnyStore, value: unknown, options: IngestOptions): IngestResult | Promise<IngestResult> {
  return ingestParts(store, checkedPartsOf(value, options.fileName), options);
}

/**
 * Normalises, hashes and stores the parts as they come, inside one transaction. The canonical
 * text of each test is kept until the end, as bytes off the heap (HeldBytes): the hash starts
 * with the run's header, which counts the tests (so duplicates match the hashes of earlier
 * versions), and it is far smaller than the report. SQLite stores synchronously as the tests
 * come; PostgreSQL awaits each batch.
 */
function ingestParts(store: AnyStore, parts: Iterable<ReportPart>, options: IngestOptions, estimate = (stored: number) => stored): IngestResult | Promise<IngestResult> {
  const header = runHeader(options);
  const tests = readRun(parts, options, estimate, false);
  let ending: RunEnding | undefined;
  if (store.dialect === 'postgres') {
    return writeRunPostgres(store, header, async (addTest) => {
      for (;;) {
        const next = tests.next();
        if (next.done) return (ending = next.value);
        await addTest(next.value[0]);
      }
    }).then((stored) => resultOf(stored, ending!));
  }
  const stored = writeRunInParts(store, header, (addTest) => {
    for (;;) {
      const next = tests.next();
      if (next.done) return (ending = next.value);
      addTest(next.value[0]);
    }
  });
  return resultOf(stored, ending!);
}

/** What is known of the run before its report is read. */
function runHeader(options: IngestOptions): RunHeader {
  return {
    fileName: options.runName || options.fileName,
    fileSize: options.fileSize ?? null,
    fallbackStartedAt: options.fallbackStartedAt ?? Date.now(),
    approve: options.approve ?? false,
    uploadedBy: options.uploadedBy ?? null,
    uploadedVia: options.uploadedVia ?? null,
  };
}

/**
 * The report's tests as they are read, each with the test as the report has it if `sources`
 * (its attachments' bodies, which the normalised test leaves out), then (returned) what is
 * known at its end.
 */
function* readRun(
  parts: Iterable<ReportPart>,
  options: IngestOptions,
  estimate: (stored: number) => number,
  sources: boolean,
  onConfig?: (config: PwConfig) => void,
): Generator<[NormalisedTest, PwTest | undefined], RunEnding> {
  const taken = new TakenTests(options, estimate);
  const tests = normaliseParts(
    parts,
    (config) => {
      taken.config(config);
      onConfig?.(config);
    },
    sources,
  );
  for (;;) {
    const next = tests.next();
    if (next.done) return taken.ending(next.value.run, next.value.contentHash);
    taken.take(next.value[0]);
    yield next.value;
    taken.counted();
  }
}

/** What the writing thread does with each test read (owners, evidence, progress), and the run's ending. */
class TakenTests {
  private owners = new OwnersCollector(null);
  private seq = 0;
  private stored = 0;

  constructor(
    private readonly options: IngestOptions,
    private readonly estimate: (stored: number) => number,
  ) {}

  config(config: PwConfig): void {
    const rootDir = typeof config.rootDir === 'string' ? config.rootDir : null;
    this.owners = new OwnersCollector(this.options.ownersFor?.(rootDir) ?? null);
  }

  take(test: NormalisedTest): void {
    this.owners.add(test);
    if (this.options.evidence) this.options.evidence(test, this.seq);
    else referencedEvidence(test);
    this.seq++;
  }

  /** After the test is stored. */
  counted(): void {
    this.stored++;
    if (this.options.onProgress && this.stored % PROGRESS_EVERY === 0) this.options.onProgress(this.stored, this.estimate(this.stored));
  }

  ending(run: RunSummary, contentHash: string): RunEnding {
    const { options } = this;
    let gitBranch = options.gitBranch || run.git.branch;
    let gitCommit = options.gitCommit || run.git.commit;
    if ((!gitBranch || !gitCommit) && options.fallbackGit) {
      const fallback = options.fallbackGit();
      gitBranch ||= fallback.branch;
      gitCommit ||= fallback.commit;
    }
    const project = options.project || run.detected.project;
    return { run, contentHash, project, gitBranch: gitBranch ?? null, gitCommit: gitCommit ?? null, buildId: options.buildId ?? null, buildUrl: options.buildUrl ?? null, owners: this.owners.result() };
  }
}

/** The attachments of an upload that name the blob sent before it: stored, if the server has it (write/attachment-rows.ts checks). */
function referencedEvidence(test: NormalisedTest): void {
  for (const attempt of test.attempts) {
    if (!attempt.attachments.some((a) => a.sha256)) continue;
    attempt.evidence = attempt.attachments.map((a) => (a.sha256 ? { kind: attachmentKind(a.name, a.contentType), sha256: a.sha256, size: null, state: 'stored' as const } : null));
  }
}

function resultOf(stored: StoredRun, ending: RunEnding): IngestResult {
  const run = ending.run;
  return {
    ...run.counts,
    runId: stored.runId,
    duplicate: stored.duplicate,
    duplicateOf: stored.duplicateOf,
    status: stored.status,
    browser: run.detected.browser,
    project: ending.project,
    loadFailed: run.loadFailed,
    loadError: run.loadFailed ? (run.errors[0]?.summary ?? null) : null,
  };
}

/** SHA-256 of the report's canonical content (core/report/canonical.ts): duplicates. */
export function hashRun(run: NormalisedRun): string {
  const hash = createHash('sha256');
  emitCanonicalContent(run, (text) => hash.update(text));
  return hash.digest('hex');
}
