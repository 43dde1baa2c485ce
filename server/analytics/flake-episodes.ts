import { flakeEpisodes, type FlakeDay, type FlakeEpisode } from '../../core/analytics/formulas.js';
import { baseStore } from '../store/engine/one-connection.js';
import type { AnyStore } from '../store/engine/types.js';
import { flakeDaysOf, flakyTestIds } from '../store/read/time-to-fix.js';
import { firstDayAddedSince } from '../store/read/window-scan.js';

/**
 * Every flaky test's flake episodes over all history (all branches, or one), kept for the data
 * version that made them: the dashboard's time to fix reads them whatever its window or owner,
 * and at ten million results reading their days was 3.0 of the 7-day dashboard's 5.4 s of CPU
 * (docs/benchmarks.md#ten-million-results). One version per store, shared by callers that ask
 * while it is read; a caller that read the version before the episodes never keeps episodes
 * older than it (the same rule as trend-rows.ts). Every branch's and at most BRANCHES_KEPT
 * single branches' are kept, the least recently asked dropped first.
 *
 * A new version made only by runs stored since (an upload) reads the flaky tests' days from
 * the first day those runs touch, and the whole history of tests that became flaky: the days
 * before are as they were. Anything else (a review, a delete, a prune) reads everything again.
 */
export interface EpisodeState {
  /** The tests flaky when read: a test that becomes flaky later has its whole history read. */
  flaky: ReadonlySet<number>;
  /** Each test's days, packed (packDays): only a test an upload touches has them unpacked again. */
  days: ReadonlyMap<number, Int32Array>;
  episodes: Map<number, FlakeEpisode[]>;
}

/**
 * A test's days as [day, runs, flaked] triples. At ten million results the days of 5,000 flaky
 * tests are 500,000, kept as objects about 30 MB per branch kept (every branch's and up to
 * BRANCHES_KEPT more), packed 6 MB (docs/benchmarks.md#ten-million-results).
 */
function packDays(days: readonly FlakeDay[]): Int32Array {
  const packed = new Int32Array(days.length * 3);
  days.forEach((d, i) => {
    packed[i * 3] = d.day;
    packed[i * 3 + 1] = d.runs;
    packed[i * 3 + 2] = d.flaked ? 1 : 0;
  });
  return packed;
}

function unpackDays(packed: Int32Array | undefined): FlakeDay[] {
  const days: FlakeDay[] = [];
  for (let i = 0; packed && i < packed.length; i += 3) days.push({ day: packed[i]!, runs: packed[i + 1]!, flaked: packed[i + 2] === 1 });
  return days;
}
type Kept = { signature: string; state: Promise<EpisodeState> };
const kept = new WeakMap<AnyStore, Map<string | null, Kept>>();
export const BRANCHES_KEPT = 8;

export function allFlakeEpisodes(store: AnyStore, signature: string, branch: string | null = null): Promise<Map<number, FlakeEpisode[]>> {
  const base = baseStore(store);
  let byBranch = kept.get(base);
  if (!byBranch) kept.set(base, (byBranch = new Map()));
  const entry = byBranch.get(branch);
  byBranch.delete(branch);
  if (entry?.signature === signature) {
    byBranch.set(branch, entry);
    return entry.state.then((s) => s.episodes);
  }
  const state = entry ? afterward(store, entry, branch) : whole(store, branch);
  byBranch.set(branch, { signature, state });
  const singles = [...byBranch.keys()].filter((key) => key !== null);
  for (const key of singles.slice(0, Math.max(0, singles.length - BRANCHES_KEPT))) byBranch.delete(key);
  // A failed read is not kept: the next caller reads again.
  state.catch(() => {
    if (byBranch.get(branch)?.state === state) byBranch.delete(branch);
  });
  return state.then((s) => s.episodes);
}

/** How a whole state is read: in the caller's thread unless a reader is set (setEpisodeStateReader). */
export type EpisodeStateReader = (store: AnyStore, branch: string | null) => Promise<EpisodeState>;
let wholeReader: EpisodeStateReader | null = null;

/**
 * Sets how every flaky test's whole history is read (null: in this thread). The analytics worker
 * on SQLite reads it in a thread of its own (episode-thread.ts), on the machine's other core,
 * while its own connection scans the dashboard's window.
 */
export function setEpisodeStateReader(reader: EpisodeStateReader | null): void {
  wholeReader = reader;
}

/** Empties what is kept: benchmarks measuring cold computations. */
export function forgetFlakeEpisodes(store: AnyStore): void {
  kept.delete(baseStore(store));
}

function whole(store: AnyStore, branch: string | null): Promise<EpisodeState> {
  return (wholeReader ?? readEpisodeState)(store, branch);
}

/** Every flaky test's days and episodes, read in this thread. */
export async function readEpisodeState(store: AnyStore, branch: string | null): Promise<EpisodeState> {
  const [flaky, days] = await Promise.all([flakyTestIds(store), flakeDaysOf(store, null, branch)]);
  const packed = new Map<number, Int32Array>();
  const episodes = new Map<number, FlakeEpisode[]>();
  for (const [id, list] of days) {
    packed.set(id, packDays(list));
    episodes.set(id, flakeEpisodes(list));
  }
  return { flaky, days: packed, episodes };
}

/** The state at a new version from the one kept before it, reading only what can have changed. */
async function afterward(store: AnyStore, before: Kept, branch: string | null): Promise<EpisodeState> {
  const previous = await before.state.catch(() => null);
  const from = previous ? await firstDayAddedSince(store, before.signature) : undefined;
  if (!previous || from === undefined) return whole(store, branch);
  const flaky = await flakyTestIds(store);
  const newly = [...flaky].filter((id) => !previous.flaky.has(id));
  const [tails, fresh] = await Promise.all([from === null ? new Map<number, FlakeDay[]>() : flakeDaysOf(store, null, branch, from), flakeDaysOf(store, newly, branch)]);
  const days = new Map(previous.days);
  const episodes = new Map(previous.episodes);
  const update = (id: number, list: FlakeDay[]) => {
    days.set(id, packDays(list));
    episodes.set(id, flakeEpisodes(list));
  };
  for (const [id, tail] of tails) update(id, [...unpackDays(days.get(id)).filter((d) => d.day < from!), ...tail]);
  for (const [id, list] of fresh) update(id, list);
  return { flaky, days, episodes };
}
