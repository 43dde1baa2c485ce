import type { FlakeEpisode } from '../../core/analytics/formulas.js';
import { baseStore } from '../store/engine/one-connection.js';
import type { AnyStore } from '../store/engine/types.js';
import { flakeEpisodesOf } from '../store/read/time-to-fix.js';

/**
 * Every flaky test's flake episodes over all history, kept for the data version that made them:
 * the dashboard's time to fix reads them whatever its window, branch or owner, and at ten
 * million results reading their days was 3.0 of the 7-day dashboard's 5.4 s of CPU
 * (docs/benchmarks.md#ten-million-results). One version per store, shared by callers that ask
 * while it is read; a caller that read the version before the episodes never keeps episodes
 * older than it (the same rule as trend-rows.ts).
 */
const kept = new WeakMap<AnyStore, { signature: string; episodes: Promise<Map<number, FlakeEpisode[]>> }>();

export function allFlakeEpisodes(store: AnyStore, signature: string): Promise<Map<number, FlakeEpisode[]>> {
  const base = baseStore(store);
  const entry = kept.get(base);
  if (entry?.signature === signature) return entry.episodes;
  const episodes = flakeEpisodesOf(store, null);
  kept.set(base, { signature, episodes });
  // A failed read is not kept: the next caller reads again.
  episodes.catch(() => {
    if (kept.get(base)?.episodes === episodes) kept.delete(base);
  });
  return episodes;
}

/** Empties what is kept: benchmarks measuring cold computations. */
export function forgetFlakeEpisodes(store: AnyStore): void {
  kept.delete(baseStore(store));
}
