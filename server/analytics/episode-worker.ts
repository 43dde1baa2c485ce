/**
 * The episode reader (episode-thread.ts): one read of every flaky test's whole history on a
 * read-only connection of its own, its answer, then the thread ends. Its own small entry: started
 * from the analytics worker's, the thread loaded every query's code before it could read (about
 * half a second of CPU at each start).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runInBackground } from '../workers/background-priority.js';
import { openStore, SERVER_CACHE_MB } from '../store/engine/open.js';
import { readEpisodeState } from './flake-episodes.js';
import type { EpisodeReply, EpisodeThreadData } from './episode-thread.js';

const port = parentPort;
if (!port) throw new Error('episode reader: not started as a worker thread');
runInBackground();
const data = workerData as EpisodeThreadData;
try {
  const store = openStore(data.path, { readonly: true, cacheMb: SERVER_CACHE_MB });
  try {
    port.postMessage({ state: await readEpisodeState(store, data.branch) } satisfies EpisodeReply);
  } finally {
    await store.close();
  }
} catch (error) {
  port.postMessage({ failure: error instanceof Error ? error.message : String(error) } satisfies EpisodeReply);
}
