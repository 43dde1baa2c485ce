import { createReadStream, createWriteStream, mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { isSha256 } from '../../../core/api/attachments.js';
import { EvidenceIntegrityError, EvidenceUnavailableError, statsOf, type ByteRange, type EvidenceBlob, type EvidenceReopen, type EvidenceStats, type EvidenceStore, type ListedBlob } from './evidence-store.js';
import { sha256Of, VerifyingStream } from './hashing.js';
import type { S3Target } from './s3-url.js';

/**
 * Evidence in an S3-compatible bucket, through the AWS SDK; credentials from the standard
 * environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_PROFILE, a role...). Checksums
 * only when required: MinIO, R2 and s3rver refuse or ignore the SDK's newer default ones. A blob is
 * `prefix/ab/abcdef…`. A stream is spooled to a private temporary file while its hash is checked,
 * and sent only once it is right: an object store keeps whatever a PUT completes.
 */
// The SDK tells every process on Node 20 that its releases after the first week of January 2027
// need Node 22. flakeboard runs on Node 20 (package.json engines) and keeps the SDK on a release
// line that does (docs/evidence.md, "Where the blobs live"): to someone running `import` or
// `serve` the warning is noise they can do nothing about. A value the user set is kept.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export class S3EvidenceStore implements EvidenceStore {
  readonly location: string;
  private readonly client: S3Client;

  readonly reopen: EvidenceReopen;

  constructor(private readonly target: S3Target) {
    this.location = `s3://${target.bucket}/${target.prefix}`;
    this.reopen = { kind: 's3', target };
    this.client = new S3Client({
      ...(target.endpoint ? { endpoint: target.endpoint } : {}),
      region: target.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1',
      forcePathStyle: target.forcePathStyle ?? target.endpoint !== undefined,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // An object store that is down answers in seconds, not after the SDK's long default retries.
      maxAttempts: 2,
    });
  }

  private key(sha256: string): string {
    if (!isSha256(sha256)) throw new EvidenceIntegrityError(`"${sha256.slice(0, 80)}" is not a SHA-256`);
    return `${this.target.prefix}${sha256.slice(0, 2)}/${sha256}`;
  }

  private async call<T>(work: () => Promise<T>, what: string): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof EvidenceIntegrityError) throw error;
      throw new EvidenceUnavailableError(`the evidence bucket ${this.location} could not ${what}: ${(error as Error).message || (error as Error).name}`, { cause: error });
    }
  }

  async has(sha256: string): Promise<boolean> {
    return (await this.size(sha256)) !== null;
  }

  async size(sha256: string): Promise<number | null> {
    const key = this.key(sha256);
    return this.call(async () => {
      try {
        const head = await this.client.send(new HeadObjectCommand({ Bucket: this.target.bucket, Key: key }));
        return head.ContentLength ?? 0;
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    }, 'be read');
  }

  async put(sha256: string, bytes: NodeJS.ReadableStream | Uint8Array, size: number): Promise<void> {
    const key = this.key(sha256);
    if (bytes instanceof Uint8Array) {
      if (bytes.length !== size || sha256Of(bytes) !== sha256) throw new EvidenceIntegrityError(`the bytes sent as ${sha256} (${bytes.length} bytes) do not hash to it`);
      await this.call(() => this.client.send(new PutObjectCommand({ Bucket: this.target.bucket, Key: key, Body: bytes, ContentLength: size })), 'store a blob');
      return;
    }
    // The body is taken in the same turn it is given (a folder made synchronously, not awaited):
    // a body that fails meanwhile would otherwise emit its error with no one listening.
    const dir = mkdtempSync(join(tmpdir(), 'flakeboard-evidence-'));
    const sink = createWriteStream(join(dir, 'blob'), { mode: 0o600, flags: 'wx' });
    try {
      await pipeline(bytes, new VerifyingStream(sha256, size), sink);
      await this.call(
        () => this.client.send(new PutObjectCommand({ Bucket: this.target.bucket, Key: key, Body: createReadStream(join(dir, 'blob')), ContentLength: size })),
        'store a blob',
      );
    } finally {
      // A body that fails at once rejects the pipeline before the spool is opened: the folder is
      // removed once the file is closed, or the late open would fill it again (folder-store.ts).
      if (!sink.closed) await new Promise<void>((resolve) => sink.once('close', () => resolve()));
      await rm(dir, { recursive: true, force: true });
    }
  }

  async get(sha256: string, range?: ByteRange): Promise<EvidenceBlob | null> {
    const key = this.key(sha256);
    return this.call(async () => {
      try {
        const answer = await this.client.send(
          new GetObjectCommand({ Bucket: this.target.bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
        );
        const total = /\/(\d+)$/.exec(answer.ContentRange ?? '')?.[1];
        const size = total !== undefined ? Number(total) : (answer.ContentLength ?? 0);
        return { stream: answer.Body as Readable, size };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    }, 'be read');
  }

  async delete(sha256: string): Promise<void> {
    const key = this.key(sha256);
    await this.call(() => this.client.send(new DeleteObjectCommand({ Bucket: this.target.bucket, Key: key })), 'delete a blob');
  }

  async *list(): AsyncIterable<ListedBlob> {
    let token: string | undefined;
    do {
      const page = await this.call(
        () => this.client.send(new ListObjectsV2Command({ Bucket: this.target.bucket, Prefix: this.target.prefix, ContinuationToken: token })),
        'be listed',
      );
      for (const object of page.Contents ?? []) {
        const name = (object.Key ?? '').slice(this.target.prefix.length);
        const sha256 = name.slice(3);
        if (name[2] === '/' && isSha256(sha256) && name.startsWith(sha256.slice(0, 2))) yield { sha256, size: object.Size ?? 0, modifiedAt: object.LastModified?.getTime() ?? 0 };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  stats(): Promise<EvidenceStats> {
    return statsOf(this.list());
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
}
