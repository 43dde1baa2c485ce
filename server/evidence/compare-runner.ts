import type { ZipCaps } from '../../core/trace/capped-zip.js';
import { FairQueue } from '../analytics/fair-queue.js';
import { JobWorker, wholeBuffer } from '../workers/job-worker.js';
import type { CompareJob, CompareReply, EntryRead, TraceRead } from './compare-job.js';

/** The time one job may take in the worker; past it the worker is ended and started again. */
export const COMPARE_TIME_LIMIT_MS = 20_000;
/** Comparisons (and frames) one caller may have waiting; more is a 429 for that caller alone. */
export const COMPARE_WAITING_PER_CALLER = 8;

type Job = CompareJob extends infer J ? (J extends CompareJob ? Omit<J, 'id'> : never) : never;

/**
 * One worker thread reads the traces of the whole process's comparisons (unzipping and parsing
 * grow with the trace: not on the request thread); the zips' bytes are transferred, not copied.
 * Jobs go to it one at a time, callers taking turns (FairQueue): a caller opening many
 * comparisons delays another's by at most one of its own, and a job's time limit counts only
 * its own work, never its wait behind others.
 */
export class CompareWorker {
  // From the bundle the worker is dist/compare-worker.js beside this chunk; from source (tests) compare-worker.ts.
  private readonly worker = new JobWorker<CompareJob, CompareReply>({
    entry: { source: new URL('./compare-worker.ts', import.meta.url), bundled: new URL('./compare-worker.js', import.meta.url) },
    what: 'comparison',
  });
  private readonly queue = new FairQueue<CompareReply>(1, COMPARE_WAITING_PER_CALLER, (waiting) => `You have ${waiting} comparisons waiting, as many as one caller may; try again when one has answered`);

  constructor(private readonly limitMs = COMPARE_TIME_LIMIT_MS) {}

  get threads(): number {
    return this.worker.threads;
  }

  /** Jobs waiting their turn, all callers together. */
  get waiting(): number {
    return this.queue.waiting;
  }

  /** Both traces' summaries and frames, the failing attempt's first. */
  async read(caller: string, traces: [Uint8Array, Uint8Array], caps: ZipCaps): Promise<[TraceRead, TraceRead]> {
    const reply = await this.run(caller, { kind: 'read', traces, caps }, traces);
    if (!('reads' in reply)) throw new Error(`The traces could not be read: ${'failure' in reply ? reply.failure : 'no answer'}`);
    return reply.reads;
  }

  /** One entry of a trace zip (a frame), expanded under `caps`. */
  async entry(caller: string, zip: Uint8Array, name: string, caps: ZipCaps): Promise<EntryRead> {
    const reply = await this.run(caller, { kind: 'entry', zip, name, caps }, [zip]);
    if (!('entry' in reply)) throw new Error(`The trace could not be read: ${'failure' in reply ? reply.failure : 'no answer'}`);
    return reply.entry;
  }

  close(): Promise<void> {
    return this.worker.close();
  }

  private run(caller: string, job: Job, zips: Uint8Array[]): Promise<CompareReply> {
    return this.queue.run(caller, () => {
      const transfer = [...new Set(zips.map(wholeBuffer).filter((b): b is ArrayBuffer => b !== null))];
      return this.worker.run(job, this.limitMs, transfer);
    });
  }
}

export const compareWorker = new CompareWorker();
