import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { attachmentKind, type AttachmentKind } from '../../core/api/attachments.js';
import { RunNormaliser } from '../../core/report/normalise.js';
import type { AttachmentEvidence, NormalisedTest } from '../../core/report/normalised.js';
import type { PwAttachment, PwConfig, PwTest } from '../../core/report/playwright-types.js';
import { readReportParts } from '../../core/report/read-report.js';
import { rawTests } from '../../core/report/raw-tests.js';
import { decodeChunks, fileByteChunks } from '../report-text.js';
import type { AnyStore } from '../store/engine/types.js';
import { knownBlobs, recordBlob, type BlobRow } from '../store/evidence/blob-rows.js';
import { EvidenceIntegrityError, type EvidenceStore } from '../store/evidence/evidence-store.js';
import { AttachmentFinder, type AttachmentsMode, type FoundFiles, type SourceResults } from './attachment-lookups.js';
import { resolverOf, type EvidenceBySeq, type EvidenceResolver } from './entries.js';
import type { FoundFile } from './report-files.js';

export type { AttachmentsMode };

export const ATTACHMENTS_MODES: readonly AttachmentsMode[] = ['failures', 'all', 'none'];
export const DEFAULT_ATTACHMENT_MAX_BYTES = 50 * 1024 * 1024;

/** Keeps one blob (its bytes opened only if needed); throws when it cannot. */
export type BlobSink = (sha256: string, size: number, contentType: string, failing: boolean, bytes: () => NodeJS.ReadableStream | Uint8Array) => Promise<'written' | 'there'>;

export interface CollectOptions {
  mode: AttachmentsMode;
  /** Larger attachments are skipped (state too-large). */
  maxBytes: number;
  /** Where the blobs go: the evidence store and its rows (import, storeBlobs), or an upload's list. */
  keep: BlobSink;
  /** One line per attachment skipped, saying which and why. */
  onSkip: (line: string) => void;
}

export interface CollectSummary {
  stored: number;
  /** Blobs this import wrote (the rest were there already). */
  written: number;
  bytesWritten: number;
  skipped: number;
}

/** Skipped attachments named one a line; past this, one line counts the rest. */
const SKIP_LINES = 10;

/**
 * Stores the blobs of the attachments an import keeps, a test at a time (files found under the
 * report's folders, bodies decoded), given what `finder` found of the test's files where the
 * report was read. The caller sets what `collect` returns on the test before the run is
 * committed, so a stored run never names a blob that is not there.
 */
export class EvidenceCollector {
  readonly summary: CollectSummary = { stored: 0, written: 0, bytesWritten: 0, skipped: 0 };
  /** Looks for the files on this thread: a small report's (read here), and every file about to be read. */
  readonly finder: AttachmentFinder;
  private readonly byPath = new Map<string, AttachmentEvidence>();
  private storeDown: string | null = null;

  constructor(
    readonly reportPath: string,
    private readonly options: CollectOptions,
  ) {
    this.finder = new AttachmentFinder(reportPath, options.mode);
  }

  get mode(): AttachmentsMode {
    return this.options.mode;
  }

  /** The report's config: its output folders are where attachment files are looked for. */
  setConfig(config: PwConfig): void {
    this.finder.setConfig(config);
  }

  /**
   * The evidence of each attempt's attachments (`results`: the test's attempts as the report
   * has them, bodies included; `found`: what AttachmentFinder.find found of them, on this
   * thread or the reader's), or null for a test whose attachments are not kept.
   */
  async collect(test: NormalisedTest, results: SourceResults, found: FoundFiles | null): Promise<Array<Array<AttachmentEvidence | null>> | null> {
    if (!found) return null;
    const evidence: Array<Array<AttachmentEvidence | null>> = [];
    for (let retry = 0; retry < results.length; retry++) {
      const list: Array<AttachmentEvidence | null> = [];
      const attachments = results[retry]!.attachments ?? [];
      for (let ordinal = 0; ordinal < attachments.length; ordinal++) {
        const a = attachments[ordinal]!;
        const kind = attachmentKind(a.name, a.contentType);
        // An attachment with neither a file nor a body (a link, a note) has no bytes to keep.
        if (a.body !== undefined) list.push(await this.collectBody(test, retry, a, a.body, kind));
        else if (a.path === undefined) list.push(null);
        else {
          // Without waiting when there is nothing to read: a report moved without its output
          // folder names tens of thousands of missing files, and a promise each cost more than
          // looking for them.
          const looked = this.lookUp(test, retry, a.name, a.path, found[retry]?.[ordinal] ?? null, kind);
          list.push('state' in looked ? looked : await this.collectFile(test, retry, a, a.path, looked, kind));
        }
      }
      evidence.push(list);
    }
    return evidence;
  }

  /** Says how many skipped attachments were not named one a line. */
  finish(): void {
    const { skipped } = this.summary;
    if (skipped > SKIP_LINES) this.options.onSkip(`evidence: skipped ${skipped - SKIP_LINES} more attachment(s) (${skipped} in all; the first ${SKIP_LINES} are named above)`);
  }

  private skip(test: NormalisedTest, retry: number, name: string, why: string): void {
    this.summary.skipped++;
    // A report moved without its output folder misses every file: a few lines say why, a count the rest.
    if (this.summary.skipped <= SKIP_LINES) this.options.onSkip(`evidence: skipped "${name}" of "${test.titlePath.join(' › ')}" (${test.projectName || test.browser}, attempt ${retry + 1}): ${why}`);
  }

  private async keep(sha256: string, size: number, contentType: string, failing: boolean, bytes: () => NodeJS.ReadableStream | Uint8Array): Promise<void> {
    if ((await this.options.keep(sha256, size, contentType, failing, bytes)) === 'written') {
      this.summary.written++;
      this.summary.bytesWritten += size;
    }
  }

  private notStored(test: NormalisedTest, retry: number, name: string, kind: AttachmentKind, why: string): AttachmentEvidence {
    this.skip(test, retry, name, why);
    return { kind, sha256: null, size: null, state: 'not-stored' };
  }

  private async collectBody(test: NormalisedTest, retry: number, a: PwAttachment, body: string, kind: AttachmentKind): Promise<AttachmentEvidence> {
    const { maxBytes } = this.options;
    const bytes = Buffer.from(body, 'base64');
    if (bytes.length > maxBytes) {
      this.skip(test, retry, a.name, `${bytes.length} bytes, over the ${maxBytes}-byte limit (--attachment-max-size)`);
      return { kind, sha256: null, size: bytes.length, state: 'too-large' };
    }
    if (this.storeDown) return this.notStored(test, retry, a.name, kind, this.storeDown);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    try {
      await this.keep(sha256, bytes.length, a.contentType, isFailing(test), () => bytes);
    } catch (error) {
      this.storeDown = storeProblem(error);
      return this.notStored(test, retry, a.name, kind, this.storeDown);
    }
    this.summary.stored++;
    return { kind, sha256, size: bytes.length, state: 'stored' };
  }

  /**
   * A file's evidence if it is known without reading it (seen before, missing, outside, too
   * large), else the file to read. `looked`: what the finder found where the report was read.
   * A miss or a refusal is taken as it is (it only ever keeps a file from being read); a file to
   * read is looked for again here, right before it is opened, so what this thread opens is what
   * this thread checked, not a path handed over from a thread that looked earlier.
   */
  private lookUp(test: NormalisedTest, retry: number, name: string, written: string, looked: FoundFile | null, kind: AttachmentKind): AttachmentEvidence | { path: string; size: number } {
    const known = this.byPath.get(written);
    if (known) {
      if (known.state === 'stored') this.summary.stored++;
      return known;
    }
    const found = looked && 'problem' in looked ? looked : this.finder.file(written);
    let result: AttachmentEvidence;
    if ('problem' in found) {
      this.skip(test, retry, name, found.problem === 'outside' ? `${JSON.stringify(written)} is outside the report's folder and its output folders: not read` : `${JSON.stringify(written)} was not found (beside the report either)`);
      result = { kind, sha256: null, size: null, state: 'not-found' };
    } else if (found.size > this.options.maxBytes) {
      this.skip(test, retry, name, `${found.size} bytes, over the ${this.options.maxBytes}-byte limit (--attachment-max-size)`);
      result = { kind, sha256: null, size: found.size, state: 'too-large' };
    } else if (this.storeDown) {
      result = this.notStored(test, retry, name, kind, this.storeDown);
    } else return found;
    this.byPath.set(written, result);
    return result;
  }

  private async collectFile(test: NormalisedTest, retry: number, a: PwAttachment, written: string, found: { path: string; size: number }, kind: AttachmentKind): Promise<AttachmentEvidence> {
    let result: AttachmentEvidence;
    try {
      const sha256 = await hashFile(found.path);
      await this.keep(sha256, found.size, a.contentType, isFailing(test), () => createReadStream(found.path));
      this.summary.stored++;
      result = { kind, sha256, size: found.size, state: 'stored' };
    } catch (error) {
      // A file changed while it was read is this attachment's problem; anything else is the store's.
      if (error instanceof EvidenceIntegrityError) return this.notStored(test, retry, a.name, kind, `${JSON.stringify(written)} changed while it was read`);
      this.storeDown = storeProblem(error);
      return this.notStored(test, retry, a.name, kind, this.storeDown);
    }
    this.byPath.set(written, result);
    return result;
  }
}

const isFailing = (test: NormalisedTest) => test.outcome === 'unexpected' || test.outcome === 'flaky';

/** Sets the evidence `collect` found on the test's attempts (as resolverOf does by place). */
export function setEvidence(test: NormalisedTest, evidence: Array<Array<AttachmentEvidence | null>>): void {
  test.attempts.forEach((attempt, i) => {
    const list = evidence[i];
    if (!list) return;
    attempt.evidence = attempt.attachments.map((_, ordinal) => list[ordinal] ?? null);
  });
}

/**
 * Reads the report and stores the blobs of the attachments it keeps, before any run is written
 * (an upload's evidence, sent ahead of its report). Returns what the import sets on each test,
 * by its place in the report.
 */
export async function collectImportEvidence(
  reportPath: string,
  fileName: string,
  options: CollectOptions,
): Promise<{ resolve: EvidenceResolver; summary: CollectSummary; bySeq: EvidenceBySeq }> {
  const bySeq: EvidenceBySeq = new Map();
  const resolve = resolverOf(bySeq);
  const collector = new EvidenceCollector(reportPath, options);
  if (options.mode === 'none') return { resolve, summary: collector.summary, bySeq };
  let normaliser: RunNormaliser | null = null;
  let seq = 0;
  for (const part of readReportParts(() => decodeChunks(fileByteChunks(reportPath)), fileName)) {
    if (part.kind === 'config') {
      normaliser = new RunNormaliser(part.config);
      collector.setConfig(part.config as PwConfig);
      continue;
    }
    if (part.kind !== 'suite') continue;
    const raw = rawTests(part.suite);
    for (const test of normaliser!.suiteTests(part.suite, hasAttachments)) {
      const source = raw.next().value as PwTest;
      const testSeq = seq++;
      if (!test) continue;
      const evidence = await collector.collect(test, source.results, collector.finder.find(test, source.results));
      if (evidence) bySeq.set(testSeq, evidence);
    }
  }
  collector.finish();
  return { resolve, summary: collector.summary, bySeq };
}

/**
 * The import's sink: puts a blob in the evidence store unless its row says it is there, and
 * records the row after (a blob the table names is always there), also kept in `rows` if given.
 */
export function storeBlobs(store: AnyStore, evidence: EvidenceStore, now: () => number = Date.now, rows?: BlobRow[]): BlobSink {
  const seen = new Set<string>();
  return async (sha256, size, contentType, failing, bytes) => {
    let result: 'written' | 'there' = 'there';
    if (!seen.has(sha256)) {
      if (!(await knownBlobs(store, [sha256])).has(sha256)) {
        await evidence.put(sha256, bytes(), size);
        result = 'written';
      }
      seen.add(sha256);
    }
    const row = { sha256, size, content_type: contentType, stored_at: now(), failing: failing ? 1 : 0 };
    await recordBlob(store, row);
    // Recorded inside a run's transaction, a row goes with the results a duplicate rolls back: the caller records `rows` again.
    rows?.push(row);
    return result;
  };
}

/** Only a test with an attachment has anything to collect; the rest are never normalised. */
const hasAttachments = (test: PwTest): boolean => test.results.some((r) => (r.attachments?.length ?? 0) > 0);

function hashFile(path: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolvePromise(hash.digest('hex')));
  });
}

function storeProblem(error: unknown): string {
  return `the evidence store failed (${error instanceof Error ? error.message : String(error)}): not stored`;
}
