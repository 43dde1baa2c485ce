import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestS3, useS3rverCredentials, type TestS3 } from '../../../fixtures/testing/s3-server.js';
import { makeTempDir } from '../../../fixtures/testing/temp.js';
import { EvidenceIntegrityError, EvidenceUnavailableError, type EvidenceStore } from './evidence-store.js';
import { FolderEvidenceStore } from './folder-store.js';
import { S3EvidenceStore } from './s3-store.js';
import { parseS3Url } from './s3-url.js';

const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const BLOB = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));

async function text(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/** A stream that sends `count` bytes of `bytes` and then fails, as a client that goes away. */
function cutOff(bytes: Buffer, count: number): Readable {
  return new Readable({
    read() {
      this.push(bytes.subarray(0, count));
      this.destroy(new Error('aborted'));
    },
  });
}

let temp: ReturnType<typeof makeTempDir>;
let s3: TestS3;
beforeAll(async () => {
  temp = makeTempDir('flakeboard-evidence-stores-');
  useS3rverCredentials();
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3.close();
  temp.cleanup();
});

const stores: Array<[string, () => EvidenceStore]> = [
  ['a folder', () => new FolderEvidenceStore(join(temp.dir, `folder-${Math.random().toString(36).slice(2)}`))],
  ['an S3 bucket (s3rver)', () => new S3EvidenceStore({ bucket: s3.bucket, prefix: `run-${Math.random().toString(36).slice(2)}/`, endpoint: s3.endpoint })],
];

describe.each(stores)('evidence in %s', (_name, open) => {
  it('stores a blob once under its hash, and reads it whole, in ranges, listed and counted', async () => {
    const store = open();
    expect(await store.has(sha(BLOB))).toBe(false);
    await store.put(sha(BLOB), Readable.from([BLOB.subarray(0, 1000), BLOB.subarray(1000)]), BLOB.length);
    await store.put(sha(BLOB), BLOB, BLOB.length);
    expect(await store.has(sha(BLOB))).toBe(true);
    expect(await store.size(sha(BLOB))).toBe(BLOB.length);
    const whole = (await store.get(sha(BLOB)))!;
    expect(whole.size).toBe(BLOB.length);
    expect((await text(whole.stream)).equals(BLOB)).toBe(true);
    const part = (await store.get(sha(BLOB), { start: 10, end: 19 }))!;
    expect(part.size).toBe(BLOB.length);
    expect((await text(part.stream)).equals(BLOB.subarray(10, 20))).toBe(true);
    const listed = [];
    for await (const blob of store.list()) listed.push(blob);
    expect(listed.map(({ sha256, size }) => ({ sha256, size }))).toEqual([{ sha256: sha(BLOB), size: BLOB.length }]);
    expect(Math.abs(listed[0]!.modifiedAt - Date.now())).toBeLessThan(60_000);
    expect(await store.stats()).toEqual({ count: 1, bytes: BLOB.length });
    await store.delete(sha(BLOB));
    expect(await store.get(sha(BLOB))).toBeNull();
    await store.close();
  });

  it('stores nothing for bytes that do not hash to their name, a short or long stream, or one cut off', async () => {
    const store = open();
    const other = sha('other');
    await expect(store.put(other, Readable.from([BLOB]), BLOB.length)).rejects.toThrow(EvidenceIntegrityError);
    await expect(store.put(sha(BLOB), Readable.from([BLOB.subarray(0, 100)]), BLOB.length)).rejects.toThrow(/ended after 100 of 5000 bytes/);
    await expect(store.put(sha(BLOB), Readable.from([BLOB, BLOB]), BLOB.length)).rejects.toThrow(/longer than/);
    await expect(store.put(sha(BLOB), cutOff(BLOB, 100), BLOB.length)).rejects.toThrow('aborted');
    await expect(store.put(other, BLOB, BLOB.length)).rejects.toThrow(EvidenceIntegrityError);
    expect(await store.has(sha(BLOB))).toBe(false);
    expect(await store.has(other)).toBe(false);
    expect(await store.stats()).toEqual({ count: 0, bytes: 0 });
    await expect(store.has('../../etc/passwd')).rejects.toThrow(/not a SHA-256/);
    await store.close();
  });
});

describe('the folder store', () => {
  it('is private to its user and leaves no partial file behind', async () => {
    const dir = join(temp.dir, 'private');
    const store = new FolderEvidenceStore(dir);
    await store.put(sha(BLOB), BLOB, BLOB.length);
    await store.put(sha(BLOB), cutOff(BLOB, 10), BLOB.length).catch(() => undefined);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, sha(BLOB).slice(0, 2))).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, sha(BLOB).slice(0, 2), sha(BLOB))).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir, '.partial'))).toEqual([]);
  });

  it('leaves no partial file behind for a body that failed before its file was opened', async () => {
    const dir = join(temp.dir, 'failed-at-once');
    const store = new FolderEvidenceStore(dir);
    // The request's stream already ended in an error when the store reads it (the client went
    // away while the route checked the request): the file opens after the failure is known.
    // Before the store waited for the file to close, a few in a thousand were left behind.
    for (let i = 0; i < 1500; i++) {
      const gone = new Readable({ read() {} });
      gone.destroy(new Error('aborted'));
      await expect(store.put(sha(BLOB), gone, BLOB.length)).rejects.toThrow();
    }
    expect(readdirSync(join(dir, '.partial'))).toEqual([]);
  });
});

describe('the S3 store', () => {
  it('refuses a body that failed before it was taken, with no error left unheard and no spooled file behind', async () => {
    // The S3 store spools a streamed body to a private temporary folder to hash it before sending
    // it. A body that already failed emits its error at the next turn: the store must be listening
    // by then (an error no one hears fails the run), and, as in the folder store, must not leave
    // the spool behind when it is opened after the failure is known.
    const spools = join(temp.dir, 's3-spools');
    mkdirSync(spools);
    vi.stubEnv('TMPDIR', spools);
    const store = new S3EvidenceStore({ bucket: s3.bucket, prefix: '', endpoint: s3.endpoint });
    try {
      for (let i = 0; i < 1500; i++) {
        const gone = new Readable({ read() {} });
        gone.destroy(new Error('aborted'));
        await expect(store.put(sha(BLOB), gone, BLOB.length)).rejects.toThrow('aborted');
      }
    } finally {
      vi.unstubAllEnvs();
      await store.close();
    }
    expect(readdirSync(spools)).toEqual([]);
  });

  it('says the bucket is unavailable when the object store is down', async () => {
    const down = await startTestS3('down');
    const store = new S3EvidenceStore({ bucket: down.bucket, prefix: '', endpoint: down.endpoint });
    await down.close();
    await expect(store.has(sha(BLOB))).rejects.toThrow(EvidenceUnavailableError);
    await expect(store.put(sha(BLOB), BLOB, BLOB.length)).rejects.toThrow(/could not store a blob/);
    await store.close();
  });

  it('takes s3://bucket/prefix and nothing else', () => {
    expect(parseS3Url('s3://team-evidence/flakeboard/')).toEqual({ bucket: 'team-evidence', prefix: 'flakeboard/' });
    expect(parseS3Url('s3://team-evidence')).toEqual({ bucket: 'team-evidence', prefix: '' });
    expect(parseS3Url('s3://team-evidence/a/../b')).toBeNull();
    expect(parseS3Url('s3://UPPER/x')).toBeNull();
    expect(parseS3Url('https://team-evidence/x')).toBeNull();
  });
});
