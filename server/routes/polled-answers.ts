import { AnalyticsCache } from '../analytics/cache.js';
import type { AnyStore } from '../store/engine/types.js';

export type PolledAnswers = (today: number, key: string, compute: () => Promise<unknown>) => Promise<string>;

/**
 * The small answers the UI asks for again and again (the pending count every 15 s in every open
 * tab, recent uploads, a run's details), kept as JSON text until the runs table changes, with
 * the analytics cache's version (analytics/cache.ts): an upload, a review, a delete or a clear.
 * Under 50 polling readers these queries, each cheap, held the server's thread for most of its
 * time and health waited behind them (the mixed benchmark). Concurrent askers share one
 * computation.
 */
export function createPolledAnswers(store: AnyStore): PolledAnswers {
  // Small answers: 200 of them, 4 M characters at most.
  const cache = new AnalyticsCache(store, 200, 4 * 1024 * 1024);
  return (today, key, compute) => cache.answer(today, key, async () => JSON.stringify(await compute()));
}
