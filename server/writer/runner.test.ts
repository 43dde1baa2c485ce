import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { smallReport } from '../../fixtures/testing/app.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';
import { HttpError } from '../errors.js';
import { openStore } from '../store/engine/open.js';
import type { Store } from '../store/engine/types.js';
import { createUser } from '../store/accounts/users.js';
import { createWriter, type Writer } from './runner.js';

let temp: ReturnType<typeof makeTempDir>;
let store: Store;
let writer: Writer;
let holder: Database.Database;
beforeEach(async () => {
  temp = makeTempDir('flakeboard-writer-');
  store = openStore(join(temp.dir, 'f.db'), { busyTimeoutMs: 0 });
  await createUser(store, { username: 'max', passwordHash: 'x', role: 'member' });
  writer = createWriter(store);
  holder = new Database(join(temp.dir, 'f.db'));
});
afterEach(async () => {
  if (holder.inTransaction) holder.exec('ROLLBACK');
  holder.close();
  await writer.stop();
  await store.close();
  temp.cleanup();
});

const bytes = (title: string) => Buffer.from(JSON.stringify({ testResults: smallReport(title), metadata: { fileName: `${title}.json` } }));
const runs = () => (store.sqlite.prepare('SELECT count(*) AS n FROM runs').get() as { n: number }).n;

describe('the writer worker', () => {
  it('stores an upload from its bytes, and waits for a lock another process holds', async () => {
    expect(await writer.upload(bytes('first'), null, 1)).toMatchObject({ runId: 1, tests: 2, duplicate: false });
    holder.exec('BEGIN IMMEDIATE');
    const second = writer.upload(bytes('second'), null, 1);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(runs()).toBe(1);
    holder.exec('COMMIT');
    expect(await second).toMatchObject({ runId: 2, tests: 2 });
  });

  it('answers bad bodies as the API does, by status', async () => {
    await expect(writer.upload(Buffer.from('{"testResults": '), null, 1)).rejects.toMatchObject({ statusCode: 400, message: expect.stringMatching(/^Invalid JSON: .* at line 1/) });
    await expect(writer.review([{ id: 99, action: 'approve' }], 1, null)).rejects.toMatchObject({ statusCode: 404, message: 'Upload 99 not found' });
    expect(runs()).toBe(0);
  });

  it('stop refuses a job waiting for the lock at once, and any job after it; nothing more is stored', async () => {
    // A first job starts the worker (loading it from sources takes seconds on a busy machine).
    await writer.upload(bytes('first'), null, 1);
    holder.exec('BEGIN IMMEDIATE');
    const waiting = writer.upload(bytes('waiting'), null, 1);
    const outcome = waiting.then(
      () => 'stored',
      (error: unknown) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const started = performance.now();
    await writer.stop();
    // Refused at its next look at the flag (50 ms apart), not after the 3 s grace.
    expect(performance.now() - started).toBeLessThan(2500);
    const error = await outcome;
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ statusCode: 503, message: 'The server is shutting down: nothing was stored. Send it again once it is back.' });
    await expect(writer.deleteRun(1)).rejects.toMatchObject({ name: 'WriterStopped' });
    holder.exec('ROLLBACK');
    expect(runs()).toBe(1);
  });

  it('refuses, before parsing, an upload whose JSON would not fit in its memory (413), and stores the next', async () => {
    const small = createWriter(store, { maxUploadBytes: 1024 * 1024 });
    try {
      const costly = Buffer.from(`{"testResults":{"config":{},"suites":[],"errors":[${'{},'.repeat(700_000)}{}]}}`);
      await expect(small.upload(costly, null, 1)).rejects.toMatchObject({ statusCode: 413, message: expect.stringMatching(/^This upload's JSON would take about \d+ MB of memory to read .* more than the 69 MB the server allows for uploads up to 1 MB: nothing was stored/) });
      await expect(small.upload(bytes('next'), null, 1)).resolves.toMatchObject({ duplicate: false });
    } finally {
      await small.stop();
    }
    expect(runs()).toBe(1);
  });

  it('refuses uploads past its queue with a 503 instead of holding them all in memory', async () => {
    const small = createWriter(store, { maxQueuedUploads: 2 });
    try {
      await small.upload(bytes('warm'), null, 1);
      holder.exec('BEGIN IMMEDIATE');
      const waiting = [small.upload(bytes('a'), null, 1), small.upload(bytes('b'), null, 1)];
      await expect(small.upload(bytes('c'), null, 1)).rejects.toMatchObject({ statusCode: 503, message: expect.stringMatching(/busy storing 2 other upload/) });
      holder.exec('COMMIT');
      await Promise.all(waiting);
      // Room again once the queue drained.
      await expect(small.upload(bytes('d'), null, 1)).resolves.toMatchObject({ duplicate: false });
    } finally {
      await small.stop();
    }
    const bytesCapped = createWriter(store, { maxQueuedBytes: 100 });
    try {
      await expect(bytesCapped.upload(bytes('too big for the budget'), null, 1)).rejects.toMatchObject({ statusCode: 503 });
    } finally {
      await bytesCapped.stop();
    }
  });
});
