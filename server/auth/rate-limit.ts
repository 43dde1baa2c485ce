import type { AnyStore } from '../store/engine/types.js';
import { countHit, deleteEndedWindows } from '../store/accounts/rate-limits.js';

/** How often a server deletes the windows that ended (its own and other servers'). */
const SWEEP_EVERY_MS = 60_000;
/** Keys remembered as over their limit, at most (a flood from many addresses must not grow memory). */
const BLOCKED_KEYS_MAX = 10_000;

/**
 * A fixed-window counter per key (an address, a user): enough to stop password guessing before
 * any hash is computed. Counted in the database (store/accounts/rate-limits.ts), so that every server on
 * one database counts the same window: a client that spreads its attempts over the servers
 * behind a load balancer gets no more. `scope` keeps the limits of different routes apart.
 */
export class RateLimiter {
  private nextSweep = 0;
  /**
   * Keys whose shared window went over the limit, and when that window ends. It stays over
   * until then whatever other servers count, so this server refuses them without asking the
   * database: a flood is answered at once, even while another writer holds SQLite's lock.
   */
  private readonly blocked = new Map<string, number>();

  constructor(
    private readonly store: AnyStore,
    private readonly scope: string,
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  /** Counts one attempt; returns the seconds to wait when over the limit, else 0. */
  async hit(key: string, now = Date.now()): Promise<number> {
    const until = this.blocked.get(key);
    if (until !== undefined) {
      if (now < until) return Math.ceil((until - now) / 1000);
      this.blocked.delete(key);
    }
    if (now >= this.nextSweep) {
      this.nextSweep = now + SWEEP_EVERY_MS;
      // The table holds only windows still running: one row per recent client at most.
      await deleteEndedWindows(this.store, now);
    }
    const window = await countHit(this.store, `${this.scope}:${key}`, now, this.windowMs);
    if (window.hits <= this.max) return 0;
    this.block(key, window.windowEnd, now);
    return Math.ceil((window.windowEnd - now) / 1000);
  }

  private block(key: string, until: number, now: number): void {
    if (this.blocked.size >= BLOCKED_KEYS_MAX) {
      for (const [k, end] of this.blocked) if (end <= now) this.blocked.delete(k);
      while (this.blocked.size >= BLOCKED_KEYS_MAX) this.blocked.delete(this.blocked.keys().next().value!);
    }
    this.blocked.set(key, until);
  }
}
