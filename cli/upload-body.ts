import { readFileSync } from 'node:fs';
import type { UploadMetadata } from '../core/api/uploads.js';
import { decodeReportBytes } from '../core/report/decode.js';
import { parseReportText } from '../core/report/parse.js';
import type { PwConfig, PwSuite } from '../core/report/playwright-types.js';
import { readReportParts } from '../core/report/read-report.js';
import { decodeChunks, fileByteChunks } from '../server/report-text.js';

/** A request body that can be sent more than once (retries) without being held in memory. */
export interface UploadBody {
  /** Exact length in bytes, sent as Content-Length and checked against the server's limit. */
  length: number;
  open(): AsyncIterable<Uint8Array>;
}

export interface CheckedReport {
  config: PwConfig;
  /** The report as UTF-8 bytes, streamed from the file (transcoded when it is UTF-16 or has a BOM). */
  bytes: number;
  /** The report's test files, as it names them (relative to its rootDir). */
  files: string[];
  envelope(metadata: UploadMetadata): UploadBody;
}

/**
 * Checks a report file as `import` would (valid JSON, a Playwright report, within the limits)
 * one file suite at a time, so a 300 MB file is never held whole; it throws the same
 * InvalidReportError. The body it then sends is POST /api/upload's `{ testResults, metadata }` written
 * around the file's own text, read again from disk.
 */
export function checkReportFile(path: string, fileName: string): CheckedReport {
  const chunks = () => decodeChunks(fileByteChunks(path));
  // Counted on the way through the check: the body's length, and whether the JSON comes first.
  let bytes = 0;
  let head: string | null = null;
  let passes = 0;
  const counted = function* (): Generator<string, void, undefined> {
    const first = passes++ === 0;
    for (const chunk of chunks()) {
      if (first) {
        bytes += Buffer.byteLength(chunk, 'utf8');
        if (head === null && chunk.trim() !== '') head = chunk.trimStart();
      }
      yield chunk;
    }
  };
  let config: PwConfig | null = null;
  const files = new Set<string>();
  for (const part of readReportParts(counted, fileName)) {
    if (part.kind === 'config') config = part.config;
    else if (part.kind === 'suite') collectFiles(part.suite, files);
  }
  if (!(head as string | null)?.startsWith('{')) {
    // Lines printed before the JSON (a console capture): a small file; sent re-serialised.
    const text = JSON.stringify(parseReportText(decodeReportBytes(readFileSync(path)), fileName));
    const length = Buffer.byteLength(text);
    return { config: config!, bytes: length, files: [...files], envelope: (metadata) => envelope(metadata, length, () => [text]) };
  }
  return { config: config!, bytes, files: [...files], envelope: (metadata) => envelope(metadata, bytes, chunks) };
}

/** The files of a suite's specs, its child suites' included. */
function collectFiles(suite: PwSuite, files: Set<string>): void {
  const stack = [suite];
  while (stack.length > 0) {
    const s = stack.pop()!;
    if (typeof s.file === 'string') files.add(s.file);
    for (const spec of s.specs ?? []) if (typeof spec.file === 'string') files.add(spec.file);
    stack.push(...(s.suites ?? []));
  }
}

function envelope(metadata: UploadMetadata, reportBytes: number, chunks: () => Iterable<string>): UploadBody {
  const head = Buffer.from('{"testResults":');
  const tail = Buffer.from(`,"metadata":${JSON.stringify(metadata)}}`);
  return {
    length: head.length + reportBytes + tail.length,
    async *open() {
      yield head;
      for (const chunk of chunks()) yield Buffer.from(chunk, 'utf8');
      yield tail;
    },
  };
}
