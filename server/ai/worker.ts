/**
 * The analysis worker: its own read-only connection to the database, parsing each body (up to
 * 10 MB of JSON) and running the analysis, so neither holds the server's event loop. A model's
 * network call is awaited here too; meanwhile the next analysis runs. See runner.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runInBackground } from '../workers/background-priority.js';
import { openAnyStore } from '../store/engine/open-any.js';
import type { EvidenceReopen } from '../store/evidence/evidence-store.js';
import { reopenEvidenceStore } from '../store/evidence/open-evidence.js';
import { analysisFailureOf, runAnalysisJob, type AnalysisJob, type AnalysisReply } from './analysis-job.js';

export interface AnalysisWorkerData {
  /** The database file or PostgreSQL URL (never printed). */
  location: string;
  /** PostgreSQL: the server's statement timeout (0: none). */
  statementTimeoutMs: number;
  /** The server's evidence store, opened here too to read traces; null: none. */
  evidence: EvidenceReopen | null;
}

const port = parentPort;
if (!port) throw new Error('analysis worker: not started as a worker thread');
// The server's main thread answers first when both want a core (background-priority.ts).
runInBackground();
const data = workerData as AnalysisWorkerData;
const open = () => {
  const store = openAnyStore(data.location, { readonly: true, max: 2, statementTimeoutMs: data.statementTimeoutMs });
  // A store that cannot be opened fails the job with its error, not an unhandled rejection.
  store.catch(() => {});
  return store;
};
let opening = open();
// Opened once; a bucket that is down fails the trace's read, which the analysis does without.
const evidence = data.evidence ? reopenEvidenceStore(data.evidence) : Promise.resolve(null);
evidence.catch(() => {});
/** The open store; one that failed to open (PostgreSQL down) is opened again for the next job. */
const storeForJob = () => opening.catch(() => (opening = open()));

port.on('message', (job: AnalysisJob) => {
  storeForJob().then(
    async (store) => port.postMessage(await runAnalysisJob(store, job, await evidence.catch(() => null))),
    (error: unknown) => port.postMessage({ id: job.id, failure: analysisFailureOf(error), warnings: [] } satisfies AnalysisReply),
  );
});
