import type { AnyStore } from '../store/open.js';
import { countHit, deleteEndedWindows } from '../store/rate-limits.js';

/** How often a server deletes the windows that ended (its own and other servers'). */
const SWEEP_EVERY_MS = 60_000;

/**
 * A fixed-window counter per key (an address, a user): enough to stop password guessing before
 * any hash is computed. Counted in the database (store/rate-limits.ts), so that every server on
 * one database counts the same window: a client that spreads its attempts over the servers
 * behind a load balancer gets no more. `scope` keeps the limits of different routes apart.
 */
export class RateLimiter {
  private nextSweep = 0;

  constructor(
    private readonly store: AnyStore,
    private readonly scope: string,
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  /** Counts one attempt; returns the seconds to wait when over the limit, else 0. */
  async hit(key: string, now = Date.now()): Promise<number> {
    if (now >= this.nextSweep) {
      this.nextSweep = now + SWEEP_EVERY_MS;
      // The table holds only windows still running: one row per recent client at most.
      await deleteEndedWindows(this.store, now);
    }
    const window = await countHit(this.store, `${this.scope}:${key}`, now, this.windowMs);
    return window.hits > this.max ? Math.ceil((window.windowEnd - now) / 1000) : 0;
  }
}
