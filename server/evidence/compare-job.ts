import { ZipRefused, type ZipCaps } from '../../core/trace/capped-zip.js';
import { readTrace, type TraceFrame, type TraceSummary } from '../../core/trace/summary.js';

/** Two trace zips to read, the failing attempt's first. */
export interface CompareJob {
  id: number;
  traces: [Uint8Array, Uint8Array];
  caps: ZipCaps;
}

/** Each trace's summary and screencast frames, or why it was refused (a zip past the cap, not a trace). */
export type TraceRead = { summary: TraceSummary; frames: TraceFrame[] } | { refused: string };

export type CompareReply = { id: number; reads: [TraceRead, TraceRead] } | { id: number; failure: string };

/** Reads both traces: the expansion and parsing whose cost grows with the trace, kept off the server's thread. */
export function runCompareJob(job: CompareJob): CompareReply {
  try {
    const read = (zip: Uint8Array): TraceRead => {
      try {
        return readTrace(zip, job.caps);
      } catch (error) {
        if (error instanceof ZipRefused) return { refused: error.message };
        throw error;
      }
    };
    return { id: job.id, reads: [read(job.traces[0]), read(job.traces[1])] };
  } catch (error) {
    return { id: job.id, failure: error instanceof Error ? error.message : String(error) };
  }
}
