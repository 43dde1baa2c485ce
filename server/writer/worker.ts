/**
 * The writer worker: its own connection to the database file, doing the server's big writes
 * one at a time (uploads from the bytes received, reviews, deletes, clearing), so parsing and
 * storing a report of tens of megabytes, or waiting for a CLI import's lock, never holds the
 * server's event loop. See runner.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runInBackground } from '../workers/background-priority.js';
import { openAnyStore } from '../store/engine/open-any.js';
import { failureOf, runJob, type JobFailure, type UploadLimits, type WriteJob } from './jobs.js';

export interface WriterRequest {
  id: number;
  job: WriteJob;
}

export type WriterReply = { id: number; value: unknown } | { id: number; failure: JobFailure };

export interface WriterData {
  /** What openAnyStore opens: the database file, or a PostgreSQL URL (never printed: it may hold a password). */
  location: string;
  /** Int32Array over it: [0] is 1 once the server is stopping. */
  stop: SharedArrayBuffer;
  lockWaitMs: number;
  uploadLimits: UploadLimits;
  /** PostgreSQL: the server's pool settings, for the writer's own pool. */
  pool?: { max: number; statementTimeoutMs: number };
}

const port = parentPort;
if (!port) throw new Error('writer worker: not started as a worker thread');
// The server's main thread answers first when both want a core (background-priority.ts).
runInBackground();
const data = workerData as WriterData;
const stop = new Int32Array(data.stop);
// busy_timeout 0: the wait for another writer's lock happens in runJob, between looks at the stop flag.
// Opened once; a job waits for it (a PostgreSQL pool connects asynchronously).
const open = () => {
  const store = openAnyStore(data.location, { busyTimeoutMs: 0, lockWaitMs: data.lockWaitMs, ...data.pool });
  // A store that cannot be opened fails the job with its error, rather than an unhandled rejection.
  store.catch(() => {});
  return store;
};
let opening = open();
/** The open store; one that failed to open (PostgreSQL down when the first upload came) is opened again for the next job. */
const storeForJob = () => opening.catch(() => (opening = open()));
const context = { stopping: () => Atomics.load(stop, 0) === 1, lockWaitMs: data.lockWaitMs, uploadLimits: data.uploadLimits };

// One job at a time, in the order they came: SQLite has one writer anyway (on PostgreSQL, other
// servers' writers run beside this one; the locks in write-run-postgres.ts keep them apart).
let queue: Promise<void> = Promise.resolve();
port.on('message', (request: WriterRequest) => {
  queue = queue.then(async () => {
    let reply: WriterReply;
    try {
      reply = { id: request.id, value: await runJob(await storeForJob(), request.job, context) };
    } catch (error) {
      reply = { id: request.id, failure: failureOf(error) };
    }
    port.postMessage(reply);
    if (context.stopping()) await (await opening.catch(() => null))?.close();
  });
});
