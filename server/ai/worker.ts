/**
 * The analysis worker: its own read-only connection to the database, parsing each body (up to
 * 10 MB of JSON) and running the analysis, so neither holds the server's event loop. A model's
 * network call is awaited here too; meanwhile the next analysis runs. See runner.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openAnyStore } from '../store/engine/open-any.js';
import { analysisFailureOf, runAnalysisJob, type AnalysisJob, type AnalysisReply } from './analysis-job.js';

export interface AnalysisWorkerData {
  /** The database file or PostgreSQL URL (never printed). */
  location: string;
  /** PostgreSQL: the server's statement timeout (0: none). */
  statementTimeoutMs: number;
}

const port = parentPort;
if (!port) throw new Error('analysis worker: not started as a worker thread');
const data = workerData as AnalysisWorkerData;
const open = () => {
  const store = openAnyStore(data.location, { readonly: true, max: 2, statementTimeoutMs: data.statementTimeoutMs });
  // A store that cannot be opened fails the job with its error, not an unhandled rejection.
  store.catch(() => {});
  return store;
};
let opening = open();
/** The open store; one that failed to open (PostgreSQL down) is opened again for the next job. */
const storeForJob = () => opening.catch(() => (opening = open()));

port.on('message', (job: AnalysisJob) => {
  storeForJob().then(
    (store) => runAnalysisJob(store, job).then((reply) => port.postMessage(reply)),
    (error: unknown) => port.postMessage({ id: job.id, failure: analysisFailureOf(error), warnings: [] } satisfies AnalysisReply),
  );
});
