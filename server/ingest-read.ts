import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { canonicalHeader, canonicalTest } from '../core/report/canonical.js';
import { RunNormaliser, type RunSummary } from '../core/report/normalise.js';
import type { NormalisedTest } from '../core/report/normalised.js';
import type { PwConfig, PwTest } from '../core/report/playwright-types.js';
import { readReportParts, type ReportPart } from '../core/report/read-report.js';
import { rawTests } from '../core/report/raw-tests.js';
import { HeldBytes } from './held-bytes.js';
import { decodeChunks, fileByteChunks } from './report-text.js';

/**
 * The half of reading a report that needs nothing of the caller's (no store, no callbacks but
 * the config's): the checked parts normalised a test at a time, each with the test as the
 * report has it if `sources`, and (returned) the run's summary and its content's hash. The
 * reader thread of a large import runs this (workers/import-reader.ts); a small one runs it
 * inline (ingest.ts), so both store the same.
 */
export function* normaliseParts(
  parts: Iterable<ReportPart>,
  onConfig: (config: PwConfig) => void,
  sources: boolean,
): Generator<[NormalisedTest, PwTest | undefined], { run: RunSummary; contentHash: string }> {
  let normaliser: RunNormaliser | null = null;
  let end: Extract<ReportPart, { kind: 'end' }> | null = null;
  // The hash starts with the run's header, which counts the tests (so duplicates match the
  // hashes of earlier versions): each test's canonical text waits for it, as bytes off the heap.
  const canonical = new HeldBytes();
  for (const part of parts) {
    if (part.kind === 'config') {
      normaliser = new RunNormaliser(part.config);
      onConfig(part.config);
    } else if (part.kind === 'end') end = part;
    else {
      const raw = sources ? rawTests(part.suite) : null;
      for (const test of normaliser!.suiteTests(part.suite)) {
        const source = raw?.next().value ?? undefined;
        canonical.add(canonicalTest(test));
        yield [test, source];
      }
    }
  }
  const run = normaliser!.finish(end?.errors, end?.stats);
  const hash = createHash('sha256').update(canonicalHeader(run));
  for (const bytes of canonical.take()) hash.update(bytes);
  return { run, contentHash: hash.digest('hex') };
}

/** A report file's parts as they are read, its size, and how many bytes were read so far. */
export function fileParts(path: string, fileName: string): { parts: Iterable<ReportPart>; size: number; bytesRead: () => number } {
  const size = statSync(path).size;
  let read = 0;
  const chunks = () => decodeChunks(fileByteChunks(path, (n) => (read += n)));
  return { parts: readReportParts(chunks, fileName), size, bytesRead: () => read };
}

/** The total of tests, estimated from the share of the file's bytes read so far. */
export function estimateTotal(stored: number, read: number, size: number): number {
  return read > 0 && read < size ? Math.max(stored, Math.round((stored * size) / read)) : stored;
}
