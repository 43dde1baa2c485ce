import type { S3Target } from './s3-url.js';
import type { Readable } from 'node:stream';

/** A byte range of a blob, both ends included (as HTTP's Range header counts). */
export interface ByteRange {
  start: number;
  end: number;
}

export interface EvidenceBlob {
  stream: Readable;
  /** The whole blob's size, whatever range was asked for. */
  size: number;
}

export interface ListedBlob {
  sha256: string;
  size: number;
  /** Epoch ms. */
  modifiedAt: number;
}

export interface EvidenceStats {
  count: number;
  bytes: number;
}

/**
 * Where evidence blobs live, named by their SHA-256 (64 lowercase hex digits, checked by every
 * caller with isSha256): a folder (folder-store.ts) or an S3-compatible bucket (s3-store.ts).
 * The database's evidence_blobs row is written after `put` and removed before `delete`, so a
 * blob the table names is always there, and a blob the table lacks is an orphan (doctor).
 */
/** How to open the same store in another thread (plain data; credentials come from the environment). */
export type EvidenceReopen = { kind: 'folder'; dir: string } | { kind: 's3'; target: S3Target };

export interface EvidenceStore {
  /** Where it is, for messages: a folder or s3://bucket/prefix. Holds no secret. */
  readonly location: string;
  /** The same store from a worker thread (the AI analysis reads traces there); none: it cannot be. */
  readonly reopen?: EvidenceReopen;
  has(sha256: string): Promise<boolean>;
  /**
   * Stores the bytes under their hash. They are checked against `sha256` and `size` as they are
   * written: a mismatch or a truncated stream throws EvidenceIntegrityError and stores nothing.
   * Storing a blob already there is a no-op that still reads (and checks) the bytes.
   */
  put(sha256: string, bytes: NodeJS.ReadableStream | Uint8Array, size: number): Promise<void>;
  /** The blob, or a range of it, as a stream (never read whole); null when it is not there. */
  get(sha256: string, range?: ByteRange): Promise<EvidenceBlob | null>;
  /** Size of the blob, or null when absent. */
  size(sha256: string): Promise<number | null>;
  delete(sha256: string): Promise<void>;
  /** Every blob's hash, size and when it was written (doctor's orphan check). */
  list(): AsyncIterable<ListedBlob>;
  stats(): Promise<EvidenceStats>;
  /** Releases connections (the S3 client). */
  close(): Promise<void>;
}

/** The bytes were not what their hash or size said (a truncated or altered upload). */
export class EvidenceIntegrityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EvidenceIntegrityError';
  }
}

/** The store could not be reached or written (an object store that is down, a full disk). */
export class EvidenceUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EvidenceUnavailableError';
  }
}

/** How many blobs a listing holds and their bytes: each store counts by walking its own listing. */
export async function statsOf(blobs: AsyncIterable<ListedBlob>): Promise<EvidenceStats> {
  let count = 0;
  let bytes = 0;
  for await (const blob of blobs) {
    count++;
    bytes += blob.size;
  }
  return { count, bytes };
}
