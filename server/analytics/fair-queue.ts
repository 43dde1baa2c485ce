import { HttpError } from '../errors.js';

/** Cold answers one caller may have waiting; more is a 429 for that caller alone. */
export const MAX_WAITING_PER_CALLER = 32;

interface Job<T> {
  run(): Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

/**
 * Cold analytics answers wait here for the worker, one queue per caller (a user, a token, an
 * address), and are sent `concurrency` at a time, taking callers in turn: a caller with 400
 * queries waiting delays another's one query by at most one of its own, not by all 400.
 * The AI analyses take turns the same way (server/ai/runner.ts), with their own wording when full.
 */
export class FairQueue<T = string> {
  private readonly queues = new Map<string, Array<Job<T>>>();
  private running = 0;

  constructor(
    private readonly concurrency = 1,
    private readonly maxPerCaller = MAX_WAITING_PER_CALLER,
    private readonly fullMessage = (waiting: number) => `You have ${waiting} analytics answers still being computed, as many as one caller may; try again in a few seconds`,
  ) {}

  run(caller: string, job: () => Promise<T>): Promise<T> {
    const queue = this.queues.get(caller) ?? [];
    if (queue.length >= this.maxPerCaller) return Promise.reject(new HttpError(429, this.fullMessage(queue.length)));
    return new Promise((resolve, reject) => {
      queue.push({ run: job, resolve, reject });
      // A Map keeps insertion order: a caller that was idle joins at the end of the turn.
      if (!this.queues.has(caller)) this.queues.set(caller, queue);
      this.pump();
    });
  }

  /** Jobs waiting, all callers together (tests, diagnostics). */
  get waiting(): number {
    let n = 0;
    for (const queue of this.queues.values()) n += queue.length;
    return n;
  }

  private pump(): void {
    while (this.running < this.concurrency && this.queues.size > 0) {
      // The first caller in turn gives one job, then goes to the back of the turn.
      const [caller, queue] = this.queues.entries().next().value!;
      this.queues.delete(caller);
      const job = queue.shift()!;
      if (queue.length > 0) this.queues.set(caller, queue);
      this.running++;
      job
        .run()
        .then(job.resolve, job.reject)
        .finally(() => {
          this.running--;
          this.pump();
        });
    }
  }
}
