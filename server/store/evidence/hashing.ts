import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { EvidenceIntegrityError } from './evidence-store.js';

/**
 * A pass-through that hashes and counts the bytes, and at their end fails unless they are the
 * blob promised: `size` bytes whose SHA-256 is `sha256`. More bytes than promised fail at once.
 */
export class VerifyingStream extends Transform {
  private readonly hash: Hash = createHash('sha256');
  private seen = 0;

  constructor(
    private readonly sha256: string,
    private readonly size: number,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.size) return done(new EvidenceIntegrityError(`the blob ${this.sha256} is longer than the ${this.size} bytes announced`));
    this.hash.update(chunk);
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    if (this.seen !== this.size) return done(new EvidenceIntegrityError(`the blob ${this.sha256} ended after ${this.seen} of ${this.size} bytes`));
    const actual = this.hash.digest('hex');
    if (actual !== this.sha256) return done(new EvidenceIntegrityError(`the bytes sent as ${this.sha256} hash to ${actual}`));
    done();
  }
}

export function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
