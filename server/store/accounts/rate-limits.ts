import type { AnyStore } from '../engine/types.js';

/**
 * Fixed-window counters in the database (migration 9), so that several servers on one
 * database count one limit together. One statement counts a hit: it starts the key's window
 * (or a new one when the last has ended) or adds one to it, atomically on both engines (an
 * upsert takes the row's lock in PostgreSQL; SQLite writes one at a time), and says where the
 * window stands. The values come from the VALUES row (excluded.*), so no parameter needs a type.
 */
const HIT = `
INSERT INTO rate_limits (limit_key, window_start, window_end, hits) VALUES (@key, @now, @end, 1)
ON CONFLICT (limit_key) DO UPDATE SET
  hits = CASE WHEN rate_limits.window_end <= excluded.window_start THEN 1 ELSE rate_limits.hits + 1 END,
  window_start = CASE WHEN rate_limits.window_end <= excluded.window_start THEN excluded.window_start ELSE rate_limits.window_start END,
  window_end = CASE WHEN rate_limits.window_end <= excluded.window_start THEN excluded.window_end ELSE rate_limits.window_end END
RETURNING hits, window_end`;

const SWEEP = 'DELETE FROM rate_limits WHERE window_end <= @now';

export interface RateWindow {
  /** Hits in the key's current window, this one included. */
  hits: number;
  /** When the window ends (epoch ms). */
  windowEnd: number;
}

/** Counts one hit of `key` in its window of `windowMs` that includes `now`. */
export async function countHit(store: AnyStore, key: string, now: number, windowMs: number): Promise<RateWindow> {
  const row = await store.sql.get<{ hits: number; window_end: number }>(HIT, { key, now, end: now + windowMs });
  if (!row) throw new Error('the rate limit upsert returned no row');
  return { hits: Number(row.hits), windowEnd: Number(row.window_end) };
}

/** Deletes the windows that ended (of every key): they count for nothing. Returns how many. */
export async function deleteEndedWindows(store: AnyStore, now: number): Promise<number> {
  return store.sql.run(SWEEP, { now });
}
