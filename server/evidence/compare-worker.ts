/** The comparison's worker: expands and reads two trace zips so the server's thread does not. See compare-runner.ts. */
import { parentPort } from 'node:worker_threads';
import { runCompareJob, type CompareJob } from './compare-job.js';

const port = parentPort;
if (!port) throw new Error('comparison worker: not started as a worker thread');
port.on('message', (job: CompareJob) => port.postMessage(runCompareJob(job)));
