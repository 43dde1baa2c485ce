import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHealth } from './database-health.js';

export interface OutageTiming {
  /** While an outage lasts, one summary line at most this often. */
  summaryEveryMs: number;
  /** It is over once the database answers again and no request has failed for this long. */
  quietMs: number;
  /** How often the log looks whether to summarise or end. */
  tickMs: number;
}

export const OUTAGE_TIMING: OutageTiming = { summaryEveryMs: 10_000, quietMs: 2_000, tickMs: 500 };

interface Outage {
  since: number;
  failed: number;
  failedSinceSummary: number;
  summaryAt: number;
  lastFailureAt: number;
  lastError: string;
  unwatch: () => void;
  timer: NodeJS.Timeout;
}

/**
 * The log of a database outage: a server that answers every request 503 while PostgreSQL
 * restarts would otherwise write a stack per request (3,570 lines, 7.6 MB in one minute).
 * Instead: one line when it starts (with the driver's message), a summary at most every ten
 * seconds while it lasts (how many requests were answered 503), and one line when it ends (the
 * health probe answers again and requests have stopped failing).
 */
export class OutageLog {
  private outage: Outage | null = null;

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly health: DatabaseHealth | null,
    private readonly timing: OutageTiming = OUTAGE_TIMING,
  ) {
    // The probe may see it first (a balancer asking while no request comes).
    health?.onChange((state) => {
      if (!state.ok && !this.outage) this.begin(state.error ?? 'the database does not answer');
    });
  }

  /** Whether an outage is in progress. */
  get active(): boolean {
    return this.outage !== null;
  }

  /** A request was answered 503 because the database cannot be reached: counted, and logged only if it starts an outage. */
  failed(error: unknown): void {
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
    const outage = this.outage ?? this.begin(message);
    outage.failed += 1;
    outage.failedSinceSummary += 1;
    outage.lastFailureAt = Date.now();
    outage.lastError = message;
  }

  close(): void {
    const outage = this.outage;
    if (!outage) return;
    clearInterval(outage.timer);
    outage.unwatch();
    this.outage = null;
  }

  private begin(message: string): Outage {
    const now = Date.now();
    this.log.warn(`the database is unavailable (${message}): answering 503 until it is back`);
    const timer = setInterval(() => void this.tick(), this.timing.tickMs);
    timer.unref();
    const outage: Outage = {
      since: now,
      failed: 0,
      failedSinceSummary: 0,
      summaryAt: now,
      lastFailureAt: 0,
      lastError: message,
      unwatch: this.health?.watch() ?? (() => {}),
      timer,
    };
    this.outage = outage;
    return outage;
  }

  private async tick(): Promise<void> {
    const outage = this.outage;
    if (!outage) return;
    const now = Date.now();
    const quiet = now - outage.lastFailureAt >= this.timing.quietMs;
    const back = this.health ? (await this.health.state()).ok : true;
    if (this.outage !== outage) return;
    if (quiet && back) {
      this.close();
      this.log.info(`the database is available again after ${seconds(now - outage.since)}: ${outage.failed} request(s) answered 503 meanwhile`);
      return;
    }
    if (now - outage.summaryAt >= this.timing.summaryEveryMs && outage.failedSinceSummary > 0) {
      this.log.warn(
        `the database is still unavailable (for ${seconds(now - outage.since)}): ${outage.failedSinceSummary} request(s) answered 503 in the last ${seconds(now - outage.summaryAt)}, ${outage.failed} in all; last: ${outage.lastError}`,
      );
      outage.summaryAt = now;
      outage.failedSinceSummary = 0;
    }
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
