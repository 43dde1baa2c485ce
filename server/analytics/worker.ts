/**
 * The analytics worker: its own read-only connection to the database file, answering one
 * query at a time, so a cold query over a large history never holds the server's event loop.
 * WAL lets it read while the server writes.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openStore } from '../store/open.js';
import { answerJson, type QueryName } from './queries.js';

export interface WorkerRequest {
  id: number;
  name: QueryName;
  args: unknown;
}

export type WorkerReply = { id: number; json: string } | { id: number; error: string };

const port = parentPort;
if (!port) throw new Error('analytics worker: not started as a worker thread');
const store = openStore((workerData as { path: string }).path, { readonly: true });

port.on('message', (request: WorkerRequest) => {
  try {
    port.postMessage({ id: request.id, json: answerJson(store, request.name, request.args) } satisfies WorkerReply);
  } catch (error) {
    port.postMessage({ id: request.id, error: (error as Error).stack ?? String(error) } satisfies WorkerReply);
  }
});
