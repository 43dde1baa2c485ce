import { startWorker } from '../workers/job-worker.js';
import { ANALYTICS_THREAD_LIMITS } from './thread-limits.js';
import { flakyTestResults } from '../store/read/time-to-fix.js';
import { readEpisodeState, type EpisodeState, type EpisodeStateReader } from './flake-episodes.js';

/** What the episode reader (episode-worker.ts) is started with. */
export interface EpisodeThreadData {
  /** The database file: each thread has its own read connection, and WAL lets them read at once. */
  path: string;
  branch: string | null;
}

export type EpisodeReply = { state: EpisodeState } | { failure: string };

/**
 * A history whose flaky tests have fewer results than this has their days read in the caller's
 * thread: starting the reader costs 120 to 170 ms of CPU (its code loaded, its connection
 * opened), and a read of 250,000 day rows about as much (docs/benchmarks.md#ten-million-results).
 */
export const EPISODE_THREAD_FROM_RESULTS = 250_000;

/**
 * Reads every flaky test's whole history (flake-episodes.ts readEpisodeState) in a thread of its
 * own, started from `entry` (episode-worker.ts) for the one read and ended after it: the read is
 * once per process and branch, or after a review, delete or prune, so nothing is held between
 * reads. At ten million results it is 1.3 to 2 s of a cold dashboard's 3 to 4 s, and the
 * windows' scans another 1.5 to 2 s; one after the other on the analytics worker's one
 * connection, they left the machine's second core idle (docs/benchmarks.md#ten-million-results).
 * A thread that cannot start or read gives way to the read in the caller's thread (which then
 * says the database's own error if there is one), told to `gaveWay`. A short history (its flaky
 * tests hold fewer than `fromResults` results) is read in the caller's thread from the start.
 */
export function episodeStateInThread(
  entry: URL,
  path: string,
  options: { gaveWay?: (error: Error) => void; fromResults?: number } = {},
): EpisodeStateReader {
  const fromResults = options.fromResults ?? EPISODE_THREAD_FROM_RESULTS;
  return async (store, branch) => {
    if ((await flakyTestResults(store)) < fromResults) return readEpisodeState(store, branch);
    return readEpisodeStateInThread(entry, { path, branch }).catch((error: Error) => {
      options.gaveWay?.(error);
      return readEpisodeState(store, branch);
    });
  };
}

/** One read in a thread started from `entry`; rejected with the thread's own failure. */
export function readEpisodeStateInThread(entry: URL, data: EpisodeThreadData): Promise<EpisodeState> {
  return new Promise((resolve, reject) => {
    const thread = startWorker({ source: entry, bundled: entry }, { workerData: data, resourceLimits: ANALYTICS_THREAD_LIMITS });
    thread.once('message', (reply: EpisodeReply) => ('state' in reply ? resolve(reply.state) : reject(new Error(reply.failure))));
    thread.once('error', reject);
    thread.once('exit', (code) => reject(new Error(`the episode reader ended (code ${code}) before it answered`)));
  });
}

/**
 * The episode reader's entry beside the analytics worker's (`workerUrl`): dist/episode-worker.js
 * beside dist/analytics-worker.js, the test run's bundle of episode-worker.ts beside that of
 * worker.ts (fixtures/testing/worker-bundles.ts), or the source beside the source.
 */
export function episodeWorkerBeside(workerUrl: string): URL {
  const extension = /\.(m?js|ts)$/.exec(workerUrl)?.[0] ?? '.js';
  return new URL(`./episode-worker${extension}`, workerUrl);
}
