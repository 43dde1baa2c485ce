/** The comparison's worker: expands and reads two trace zips so the server's thread does not. See compare-runner.ts. */
import { parentPort } from 'node:worker_threads';
import { runInBackground } from '../workers/background-priority.js';
import { runCompareJob, type CompareJob } from './compare-job.js';

const port = parentPort;
if (!port) throw new Error('comparison worker: not started as a worker thread');
// The server's main thread answers first when both want a core (background-priority.ts).
runInBackground();
port.on('message', (job: CompareJob) => port.postMessage(runCompareJob(job)));
