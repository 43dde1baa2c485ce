import type { FlakeEpisode } from '../../core/analytics/formulas.js';
import { baseStore } from '../store/engine/one-connection.js';
import type { AnyStore } from '../store/engine/types.js';
import { flakeEpisodesOf } from '../store/read/time-to-fix.js';

/**
 * Every flaky test's flake episodes over all history (all branches, or one), kept for the data
 * version that made them: the dashboard's time to fix reads them whatever its window or owner,
 * and at ten million results reading their days was 3.0 of the 7-day dashboard's 5.4 s of CPU
 * (docs/benchmarks.md#ten-million-results). One version per store, shared by callers that ask
 * while it is read; a caller that read the version before the episodes never keeps episodes
 * older than it (the same rule as trend-rows.ts). Every branch's and at most BRANCHES_KEPT
 * single branches' are kept, the least recently asked dropped first.
 */
type Kept = { signature: string; episodes: Promise<Map<number, FlakeEpisode[]>> };
const kept = new WeakMap<AnyStore, Map<string | null, Kept>>();
export const BRANCHES_KEPT = 8;

export function allFlakeEpisodes(store: AnyStore, signature: string, branch: string | null = null): Promise<Map<number, FlakeEpisode[]>> {
  const base = baseStore(store);
  let byBranch = kept.get(base);
  if (!byBranch) kept.set(base, (byBranch = new Map()));
  const entry = byBranch.get(branch);
  if (entry?.signature === signature) {
    byBranch.delete(branch);
    byBranch.set(branch, entry);
    return entry.episodes;
  }
  const episodes = flakeEpisodesOf(store, null, branch);
  byBranch.delete(branch);
  byBranch.set(branch, { signature, episodes });
  const singles = [...byBranch.keys()].filter((key) => key !== null);
  for (const key of singles.slice(0, Math.max(0, singles.length - BRANCHES_KEPT))) byBranch.delete(key);
  // A failed read is not kept: the next caller reads again.
  episodes.catch(() => {
    if (byBranch.get(branch)?.episodes === episodes) byBranch.delete(branch);
  });
  return episodes;
}

/** Empties what is kept: benchmarks measuring cold computations. */
export function forgetFlakeEpisodes(store: AnyStore): void {
  kept.delete(baseStore(store));
}
