import { readZipEntries, ZipRefused, type ZipCaps } from '../../core/trace/capped-zip.js';
import { readTrace, type TraceFrame, type TraceSummary } from '../../core/trace/summary.js';

/**
 * What the comparison's worker is asked: read two trace zips (the failing attempt's first), or
 * expand one named entry of a trace (a frame where the attempts parted).
 */
export type CompareJob =
  | { id: number; kind: 'read'; traces: [Uint8Array, Uint8Array]; caps: ZipCaps }
  | { id: number; kind: 'entry'; zip: Uint8Array; name: string; caps: ZipCaps };

/** Each trace's summary and screencast frames, or why it was refused (a zip past the cap, not a trace). */
export type TraceRead = { summary: TraceSummary; frames: TraceFrame[] } | { refused: string };

/** An entry's bytes (null: the zip has no such entry), or why the zip was refused. */
export type EntryRead = { bytes: Uint8Array | null } | { refused: string };

export type CompareReply = { id: number; reads: [TraceRead, TraceRead] } | { id: number; entry: EntryRead } | { id: number; failure: string };

/** Reads traces or an entry: the expansion and parsing whose cost grows with the trace, kept off the server's thread. */
export function runCompareJob(job: CompareJob): CompareReply {
  try {
    if (job.kind === 'entry') {
      const entry = refusedOr(() => ({ bytes: readZipEntries(job.zip, (name) => name === job.name, job.caps).get(job.name) ?? null }));
      return { id: job.id, entry };
    }
    const read = (zip: Uint8Array): TraceRead => refusedOr(() => readTrace(zip, job.caps));
    return { id: job.id, reads: [read(job.traces[0]), read(job.traces[1])] };
  } catch (error) {
    return { id: job.id, failure: error instanceof Error ? error.message : String(error) };
  }
}

/** A zip past its cap or not a trace is an answer ("refused"), not a failure of the worker. */
function refusedOr<T>(read: () => T): T | { refused: string } {
  try {
    return read();
  } catch (error) {
    if (error instanceof ZipRefused) return { refused: error.message };
    throw error;
  }
}
