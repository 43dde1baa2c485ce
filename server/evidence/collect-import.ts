import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { attachmentKind, type AttachmentKind } from '../../core/api/evidence.js';
import { RunNormaliser } from '../../core/report/normalise.js';
import type { AttachmentEvidence, NormalisedTest } from '../../core/report/normalised.js';
import type { PwAttachment, PwConfig, PwSuite, PwTest } from '../../core/report/playwright-types.js';
import { readReportParts } from '../../core/report/read-report.js';
import { decodeChunks, fileByteChunks } from '../report-text.js';
import type { AnyStore } from '../store/engine/types.js';
import { knownBlobs, recordBlob } from '../store/evidence/blob-rows.js';
import { EvidenceIntegrityError, type EvidenceStore } from '../store/evidence/evidence-store.js';
import { resolverOf, type EvidenceBySeq } from './entries.js';
import { attachmentRoots, findAttachmentFile, type FolderCache } from './report-files.js';

export type AttachmentsMode = 'failures' | 'all' | 'none';
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

/** Sets each test's evidence before it is stored: the tests come in the order the collector saw them. */
export type EvidenceResolver = (test: NormalisedTest, seq: number) => void;

/** A test's attachments are kept: every attachment of a test that failed, timed out or was flaky (its passing retry too), or of every test. */
export function collects(mode: AttachmentsMode, test: NormalisedTest): boolean {
  if (mode === 'none') return false;
  if (mode === 'all') return true;
  return test.outcome === 'unexpected' || test.outcome === 'flaky' || test.attempts.some((a) => a.status === 'failed' || a.status === 'timedOut');
}

/**
 * The first pass of an import with evidence: reads the report, and stores the blobs of the
 * attachments it keeps (files found under the report's folders, bodies decoded) before the run
 * is written, so a stored run never names a blob that is not there. Returns what the second
 * pass (ingest.ts) sets on each test, by its place in the report.
 */
export async function collectImportEvidence(
  reportPath: string,
  fileName: string,
  options: CollectOptions,
): Promise<{ resolve: EvidenceResolver; summary: CollectSummary; bySeq: EvidenceBySeq }> {
  const bySeq: EvidenceBySeq = new Map();
  const summary: CollectSummary = { stored: 0, written: 0, bytesWritten: 0, skipped: 0 };
  const resolve = resolverOf(bySeq);
  if (options.mode === 'none') return { resolve, summary, bySeq };
  const byPath = new Map<string, AttachmentEvidence>();
  const folders: FolderCache = new Map();
  let storeDown: string | null = null;
  let normaliser: RunNormaliser | null = null;
  let roots: string[] = [];
  let seq = 0;

  const skip = (test: NormalisedTest, retry: number, a: PwAttachment, why: string) => {
    summary.skipped++;
    // A report moved without its output folder misses every file: a few lines say why, a count the rest.
    if (summary.skipped <= SKIP_LINES) options.onSkip(`evidence: skipped "${a.name}" of "${test.titlePath.join(' › ')}" (${test.projectName || test.browser}, attempt ${retry + 1}): ${why}`);
  };

  const keep = async (sha256: string, size: number, contentType: string, failing: boolean, bytes: () => NodeJS.ReadableStream | Uint8Array): Promise<void> => {
    if ((await options.keep(sha256, size, contentType, failing, bytes)) === 'written') {
      summary.written++;
      summary.bytesWritten += size;
    }
  };

  const collectOne = async (test: NormalisedTest, retry: number, a: PwAttachment, kind: AttachmentKind): Promise<AttachmentEvidence> => {
    const failing = test.outcome === 'unexpected' || test.outcome === 'flaky';
    const notStored = (why: string): AttachmentEvidence => {
      skip(test, retry, a, why);
      return { kind, sha256: null, size: null, state: 'not-stored' };
    };
    if (a.body !== undefined) {
      const bytes = Buffer.from(a.body, 'base64');
      if (bytes.length > options.maxBytes) {
        skip(test, retry, a, `${bytes.length} bytes, over the ${options.maxBytes}-byte limit (--attachment-max-size)`);
        return { kind, sha256: null, size: bytes.length, state: 'too-large' };
      }
      if (storeDown) return notStored(storeDown);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      try {
        await keep(sha256, bytes.length, a.contentType, failing, () => bytes);
      } catch (error) {
        storeDown = storeProblem(error);
        return notStored(storeDown);
      }
      summary.stored++;
      return { kind, sha256, size: bytes.length, state: 'stored' };
    }
    const written = a.path!;
    const known = byPath.get(written);
    if (known) {
      if (known.state === 'stored') summary.stored++;
      return known;
    }
    const found = findAttachmentFile(written, reportPath, roots, folders);
    let result: AttachmentEvidence;
    if ('problem' in found) {
      skip(test, retry, a, found.problem === 'outside' ? `${JSON.stringify(written)} is outside the report's folder and its output folders: not read` : `${JSON.stringify(written)} was not found (beside the report either)`);
      result = { kind, sha256: null, size: null, state: 'not-found' };
    } else if (found.size > options.maxBytes) {
      skip(test, retry, a, `${found.size} bytes, over the ${options.maxBytes}-byte limit (--attachment-max-size)`);
      result = { kind, sha256: null, size: found.size, state: 'too-large' };
    } else if (storeDown) {
      result = notStored(storeDown);
    } else {
      try {
        const sha256 = await hashFile(found.path);
        await keep(sha256, found.size, a.contentType, failing, () => createReadStream(found.path));
        summary.stored++;
        result = { kind, sha256, size: found.size, state: 'stored' };
      } catch (error) {
        // A file changed while it was read is this attachment's problem; anything else is the store's.
        if (error instanceof EvidenceIntegrityError) return notStored(`${JSON.stringify(written)} changed while it was read`);
        storeDown = storeProblem(error);
        return notStored(storeDown);
      }
    }
    byPath.set(written, result);
    return result;
  };

  for (const part of readReportParts(() => decodeChunks(fileByteChunks(reportPath)), fileName)) {
    if (part.kind === 'config') {
      normaliser = new RunNormaliser(part.config);
      roots = attachmentRoots(reportPath, part.config as PwConfig);
      continue;
    }
    if (part.kind !== 'suite') continue;
    const raw = rawTests(part.suite);
    for (const test of normaliser!.suiteTests(part.suite, hasAttachments)) {
      const source = raw.next().value as PwTest;
      const testSeq = seq++;
      if (!test || !collects(options.mode, test)) continue;
      const evidence: Array<Array<AttachmentEvidence | null>> = [];
      for (let retry = 0; retry < source.results.length; retry++) {
        const list: Array<AttachmentEvidence | null> = [];
        for (const a of source.results[retry]!.attachments ?? []) {
          const kind = attachmentKind(a.name, a.contentType);
          // An attachment with neither a file nor a body (a link, a note) has no bytes to keep.
          list.push(a.path === undefined && a.body === undefined ? null : await collectOne(test, retry, a, kind));
        }
        evidence.push(list);
      }
      bySeq.set(testSeq, evidence);
    }
  }
  if (summary.skipped > SKIP_LINES) options.onSkip(`evidence: skipped ${summary.skipped - SKIP_LINES} more attachment(s) (${summary.skipped} in all; the first ${SKIP_LINES} are named above)`);
  return { resolve, summary, bySeq };
}

/**
 * The import's sink: puts a blob in the evidence store unless its row says it is there, and
 * records the row after (a blob the table names is always there).
 */
export function storeBlobs(store: AnyStore, evidence: EvidenceStore, now: () => number = Date.now): BlobSink {
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
    await recordBlob(store, { sha256, size, content_type: contentType, stored_at: now(), failing: failing ? 1 : 0 });
    return result;
  };
}

/** Only a test with an attachment has anything to collect; the rest are never normalised. */
const hasAttachments = (test: PwTest): boolean => test.results.some((r) => (r.attachments?.length ?? 0) > 0);

/** The raw tests of a top-level suite in the order RunNormaliser.suiteTests yields them. */
function* rawTests(fileSuite: PwSuite): Generator<PwTest, void, undefined> {
  const stack: PwSuite[] = [fileSuite];
  while (stack.length > 0) {
    const suite = stack.pop()!;
    for (const spec of suite.specs ?? []) for (const test of spec.tests) yield test;
    const children = suite.suites ?? [];
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
}

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
