import type { NormalisedTest } from '../../core/report/normalised.js';
import type { PwAttachment, PwConfig } from '../../core/report/playwright-types.js';
import { attachmentRoots, findAttachmentFile, type FolderCache, type FoundFile } from './report-files.js';

export type AttachmentsMode = 'failures' | 'all' | 'none';

/** A test's attempts as the report has them: what evidence collection reads of it. */
export type SourceResults = ReadonlyArray<{ attachments?: PwAttachment[] }>;

/** What was found of each attachment's file, by attempt and place; null where no file is named (a body, a link, a note). */
export type FoundFiles = Array<Array<FoundFile | null>>;

/** A test's attachments are kept: every attachment of a test that failed, timed out or was flaky (its passing retry too), or of every test. */
export function collects(mode: AttachmentsMode, test: NormalisedTest): boolean {
  if (mode === 'none') return false;
  if (mode === 'all') return true;
  return test.outcome === 'unexpected' || test.outcome === 'flaky' || test.attempts.some((a) => a.status === 'failed' || a.status === 'timedOut');
}

/**
 * Looks for the files a report's kept attachments name, a test at a time, where the report is
 * read: in the reader thread of a large import, so the writing thread is handed the answers
 * with each batch (a report moved without its output names tens of thousands of missing files),
 * or inline for a small one. Its answers only ever refuse: a file to be read is looked for again
 * by the thread that reads it (EvidenceCollector), right before it is opened.
 */
export class AttachmentFinder {
  private roots: string[] = [];
  private readonly folders: FolderCache = new Map();

  constructor(
    private readonly reportPath: string,
    private readonly mode: AttachmentsMode,
  ) {}

  /** The report's config: its output folders are where attachment files are looked for. */
  setConfig(config: PwConfig): void {
    this.roots = attachmentRoots(this.reportPath, config);
  }

  /** The files of the test's attachments, or null when its attachments are not kept. */
  find(test: NormalisedTest, results: SourceResults): FoundFiles | null {
    if (!collects(this.mode, test) || !results.some((r) => (r.attachments?.length ?? 0) > 0)) return null;
    return results.map((r) => (r.attachments ?? []).map((a) => (a.body === undefined && a.path !== undefined ? this.file(a.path) : null)));
  }

  /** The file an attachment's path names, if it may be read (findAttachmentFile). */
  file(written: string): FoundFile {
    return findAttachmentFile(written, this.reportPath, this.roots, this.folders);
  }
}
