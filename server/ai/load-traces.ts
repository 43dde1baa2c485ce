/**
 * The traces an analysis reads, loaded by the route before the call: the latest failing result
 * of the test on the analysed browser that kept a trace, its first failing attempt's trace and,
 * when a retry passed and kept one, that. Bytes only (the analysis may run in a worker), and at
 * most MAX_TRACE_BYTES each: a larger trace is left out, not read in part.
 */
import type { Readable } from 'node:stream';
import type { AnyStore } from '../store/engine/types.js';
import type { AnalysisTraces } from './trace-reading.js';

export const MAX_TRACE_BYTES = 20 * 1024 * 1024;

export interface TraceBlobs {
  get(sha256: string): Promise<{ stream: Readable; size: number } | null>;
}

export async function loadTraces(store: AnyStore, blobs: TraceBlobs, test: { title: string; file: string | null; browser: string }, maxBytes = MAX_TRACE_BYTES): Promise<AnalysisTraces> {
  let query = store.db
    .selectFrom('attachments')
    .innerJoin('results', 'results.id', 'attachments.result_id')
    .innerJoin('tests', 'tests.id', 'results.test_id')
    .innerJoin('attempts', (join) => join.onRef('attempts.result_id', '=', 'attachments.result_id').onRef('attempts.retry', '=', 'attachments.retry'))
    .select(['attachments.result_id', 'attachments.retry', 'attachments.sha256', 'attachments.size', 'attempts.status'])
    .where('attachments.kind', '=', 'trace')
    .where('attachments.state', '=', 'stored')
    .where('tests.title', '=', test.title)
    .where('results.browser', '=', test.browser);
  if (test.file) query = query.where('tests.file', '=', test.file);
  const rows = await query.orderBy('results.started_at', 'desc').orderBy('attachments.retry').limit(50).execute();
  const failing = rows.find((r) => r.status !== 'passed' && r.status !== 'skipped');
  if (!failing) return {};
  const passing = rows.find((r) => r.result_id === failing.result_id && r.status === 'passed');
  const traces: AnalysisTraces = {};
  const failingBytes = await read(blobs, failing.sha256, failing.size, maxBytes);
  if (failingBytes) {
    traces.failing = failingBytes;
    if (failing.sha256) traces.failingSha256 = failing.sha256;
  }
  const passingBytes = passing ? await read(blobs, passing.sha256, passing.size, maxBytes) : null;
  if (passingBytes) traces.passing = passingBytes;
  return traces;
}

async function read(blobs: TraceBlobs, sha256: string | null, size: number | null, maxBytes: number): Promise<Uint8Array | null> {
  if (!sha256 || size === null || size > maxBytes) return null;
  const blob = await blobs.get(sha256);
  if (!blob) return null;
  if (blob.size > maxBytes) {
    blob.stream.destroy();
    return null;
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of blob.stream) {
    total += (chunk as Buffer).length;
    // The stored size is checked above; this holds even if the blob grew under its hash.
    if (total > maxBytes) {
      blob.stream.destroy();
      return null;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
