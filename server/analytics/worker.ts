/**
 * The analytics worker: its own read-only connection to the database file (or its own
 * connections to PostgreSQL), answering one query at a time, so a cold query over a large
 * history never holds the server's event loop. WAL lets it read while the server writes.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runInBackground } from '../workers/background-priority.js';
import { openAnyStore } from '../store/engine/open-any.js';
import { SERVER_CACHE_MB } from '../store/engine/open.js';
import { answerJson, type QueryName } from './queries.js';
import { queryFailureOf, type QueryFailure } from './query-failure.js';
import { ANSWERS_AT_ONCE } from './answers-at-once.js';
import { collectAfterGrowth } from '../workers/collect-garbage.js';
import { episodeStateInThread, episodeWorkerBeside } from './episode-thread.js';
import { setEpisodeStateReader } from './flake-episodes.js';

export interface WorkerRequest {
  id: number;
  name: QueryName;
  args: unknown;
}

export type WorkerReply =
  | { id: number; json: string }
  | { id: number; failure: QueryFailure }
  | { ready: true }
  | { openFailed: QueryFailure }
  // Something serve's log should say: the answers are still given.
  | { warning: string };

const port = parentPort;
if (!port) throw new Error('analytics worker: not started as a worker thread');
// The server's main thread answers first when both want a core (background-priority.ts).
runInBackground();
export interface AnalyticsWorkerData {
  /** The database file or PostgreSQL URL (never printed). */
  path: string;
  /** PostgreSQL: the server's statement timeout (0: none). */
  statementTimeoutMs: number;
  /** SQLite: the flaky tests' results from which their days are read in a thread of its own (episode-thread.ts; tests lower it). */
  episodeThreadFromResults?: number;
}

const data = workerData as AnalyticsWorkerData;
// PostgreSQL: four connections per answer in flight (runner.ts sends at most ANSWERS_AT_ONCE): a
// cold dashboard sends up to seven statements together (dashboard.ts), and an answer that pins
// one (onOneConnection) never waits for the other's.
const opened = openAnyStore(data.path, { readonly: true, max: 4 * ANSWERS_AT_ONCE, cacheMb: SERVER_CACHE_MB, statementTimeoutMs: data.statementTimeoutMs });

// Said once the store is open: a server that starts its worker ahead (runner.ts, ready()) waits
// for this. A store that cannot be opened (PostgreSQL down) is said with its error, which the
// runner gives the queries waiting (503 for a database that cannot be reached); the runner then
// ends this worker and starts a new one for the next query (the database may be back by then).
opened.then(
  (store) => {
    // On SQLite every flaky test's whole history is read by a thread of its own, beside this
    // one's statements (episode-thread.ts); PostgreSQL runs an answer's statements at once already.
    if (store.dialect === 'sqlite') {
      const gaveWay = (error: Error) => port.postMessage({ warning: `the episode reader thread failed (${error.message}); read in the analytics worker instead` } satisfies WorkerReply);
      setEpisodeStateReader(episodeStateInThread(episodeWorkerBeside(import.meta.url), data.path, { gaveWay, fromResults: data.episodeThreadFromResults }));
    }
    port.postMessage({ ready: true } satisfies WorkerReply);
  },
  (error: unknown) => port.postMessage({ openFailed: queryFailureOf(error) } satisfies WorkerReply),
);

// The rows of a cold answer on a long history are garbage once it is sent (collect-garbage.ts).
const collectGarbage = collectAfterGrowth(64 * 2 ** 20);

/**
 * SQLite: one query at a time, in the order they came (the worker's connection is one, and its
 * queries hold the thread). PostgreSQL: each at once (the runner sends at most ANSWERS_AT_ONCE):
 * an answer spends most of its time waiting for the database's round trips, and under load
 * (uploads on the same database, other servers) those waits grow; one at a time, the second
 * answer waited for all of the first's, and readers' p50 on PostgreSQL was ten times SQLite's
 * in the outage benchmark (docs/benchmarks.md#outages).
 */
let queue: Promise<void> = Promise.resolve();
const answer = async (request: WorkerRequest) => {
  try {
    // The query functions take the SQLite store until their port to both engines is done.
    const store = (await opened) as Parameters<typeof answerJson>[0];
    port.postMessage({ id: request.id, json: await answerJson(store, request.name, request.args) } satisfies WorkerReply);
  } catch (error) {
    port.postMessage({ id: request.id, failure: queryFailureOf(error) } satisfies WorkerReply);
  } finally {
    collectGarbage();
  }
};
const concurrent = opened.then((store) => store.dialect === 'postgres', () => false);
port.on('message', (request: WorkerRequest) => {
  queue = queue.then(async () => {
    if (await concurrent) void answer(request);
    else await answer(request);
  });
});
