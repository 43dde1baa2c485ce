/**
 * The reader thread of a large import: reads the report file, scans, checks and normalises it,
 * and hands the tests to the thread that holds the run's transaction (ingest-thread.ts) in
 * batches, at most READER_MAX_IN_FLIGHT of them not yet taken, so reading the next file suite
 * overlaps writing the last one and memory stays bounded.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { serialiseSteps, type NormalisedTest } from '../../core/report/normalised.js';
import type { PwConfig } from '../../core/report/playwright-types.js';
import { AttachmentFinder } from '../evidence/attachment-lookups.js';
import { fileParts, normaliseParts } from '../ingest-read.js';
import { carryError, IN_FLIGHT, READER_BATCH_TESTS, READER_MAX_IN_FLIGHT, STOP, type ReaderData, type ReaderMessage, type SourceAttachments } from '../ingest-thread.js';

const port = parentPort;
if (!port) throw new Error('import reader: not started as a worker thread');
const data = workerData as ReaderData;
const control = new Int32Array(data.control);

/** Thrown when the writer gave up (its error, or Ctrl-C): nothing more is read. */
const STOPPED = Symbol('stopped');

function send(message: ReaderMessage): void {
  for (;;) {
    if (Atomics.load(control, STOP) === 1) throw STOPPED;
    const inFlight = Atomics.load(control, IN_FLIGHT);
    if (inFlight < READER_MAX_IN_FLIGHT) break;
    Atomics.wait(control, IN_FLIGHT, inFlight);
  }
  Atomics.add(control, IN_FLIGHT, 1);
  port!.postMessage(message);
}

try {
  const { parts, bytesRead } = fileParts(data.path, data.fileName);
  // The attachment files are looked for here, not on the writing thread, which is the slower of the two.
  const finder = data.attachments ? new AttachmentFinder(data.attachments.reportPath, data.attachments.mode) : null;
  const onConfig = (config: PwConfig) => {
    finder?.setConfig(config);
    send({ kind: 'config', config });
  };
  const tests = normaliseParts(parts, onConfig, finder !== null);
  let batch: NormalisedTest[] = [];
  let sources: SourceAttachments[] = [];
  const flush = () => {
    if (batch.length > 0) send({ kind: 'tests', tests: batch, sources, bytesRead: bytesRead() });
    batch = [];
    sources = [];
  };
  for (;;) {
    const next = tests.next();
    if (next.done) {
      flush();
      send({ kind: 'end', ...next.value });
      break;
    }
    const [test, source] = next.value;
    const found = source && finder?.find(test, source.results);
    if (found) sources.push([batch.length, source.results.map((r) => ({ attachments: r.attachments })), found]);
    serialiseSteps(test);
    batch.push(test);
    if (batch.length === READER_BATCH_TESTS) flush();
  }
} catch (error) {
  if (error !== STOPPED) port.postMessage({ kind: 'error', error: carryError(error) } satisfies ReaderMessage);
}
