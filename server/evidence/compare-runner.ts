import type { ZipCaps } from '../../core/trace/capped-zip.js';
import { JobWorker, wholeBuffer } from '../workers/job-worker.js';
import type { CompareJob, CompareReply, TraceRead } from './compare-job.js';

/** The time reading two traces may take in the worker; past it the worker is ended and started again. */
export const COMPARE_TIME_LIMIT_MS = 20_000;

/**
 * One worker thread reads the traces of the whole process's comparisons (unzipping and parsing
 * grow with the trace: not on the request thread); the zips' bytes are transferred, not copied.
 */
class CompareWorker {
  // From the bundle the worker is dist/compare-worker.js beside this chunk; from source (tests) compare-worker.ts.
  private readonly worker = new JobWorker<CompareJob, CompareReply>({
    entry: { source: new URL('./compare-worker.ts', import.meta.url), bundled: new URL('./compare-worker.js', import.meta.url) },
    what: 'comparison',
  });

  get threads(): number {
    return this.worker.threads;
  }

  async read(traces: [Uint8Array, Uint8Array], caps: ZipCaps, limitMs = COMPARE_TIME_LIMIT_MS): Promise<[TraceRead, TraceRead]> {
    const transfer = [...new Set(traces.map(wholeBuffer).filter((b): b is ArrayBuffer => b !== null))];
    const reply = await this.worker.run({ traces, caps }, limitMs, transfer);
    if ('failure' in reply) throw new Error(`The traces could not be read: ${reply.failure}`);
    return reply.reads;
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}

export const compareWorker = new CompareWorker();
