import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, chmodSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isSha256 } from '../../../core/api/attachments.js';
import { EvidenceIntegrityError, statsOf, type ByteRange, type EvidenceBlob, type EvidenceReopen, type EvidenceStats, type EvidenceStore, type ListedBlob } from './evidence-store.js';
import { VerifyingStream } from './hashing.js';

/**
 * Evidence in a folder, private to its user like the database: folders 0700, files 0600. A blob
 * is `ab/abcdef…` (its hash, under its first two digits). It is written to `.partial/` first and
 * renamed into place once its hash is checked, so a write cut off anywhere leaves no half blob
 * under a hash (`.partial/` is emptied when the store opens).
 */
export class FolderEvidenceStore implements EvidenceStore {
  readonly location: string;
  private readonly partial: string;

  readonly reopen: EvidenceReopen;

  constructor(readonly dir: string) {
    this.location = dir;
    this.reopen = { kind: 'folder', dir };
    this.partial = join(dir, '.partial');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // An existing folder (made by hand, or by an older umask) is made private too.
    chmodSync(dir, 0o700);
    mkdirSync(this.partial, { recursive: true, mode: 0o700 });
  }

  /** Removes the leftovers of writes cut off by a crash. Only `serve` and the CLI's maintenance commands call it: another process may be writing. */
  async clearPartials(olderThanMs = 60 * 60 * 1000): Promise<void> {
    for (const name of await readdir(this.partial)) {
      const path = join(this.partial, name);
      const info = await stat(path).catch(() => null);
      if (info && Date.now() - info.mtimeMs > olderThanMs) await rm(path, { force: true });
    }
  }

  private pathOf(sha256: string): string {
    if (!isSha256(sha256)) throw new EvidenceIntegrityError(`"${sha256.slice(0, 80)}" is not a SHA-256`);
    return join(this.dir, sha256.slice(0, 2), sha256);
  }

  async has(sha256: string): Promise<boolean> {
    return (await this.size(sha256)) !== null;
  }

  async size(sha256: string): Promise<number | null> {
    const info = await stat(this.pathOf(sha256)).catch(() => null);
    return info?.isFile() ? info.size : null;
  }

  async put(sha256: string, bytes: NodeJS.ReadableStream | Uint8Array, size: number): Promise<void> {
    const target = this.pathOf(sha256);
    const temp = join(this.partial, `${sha256}.${randomBytes(6).toString('hex')}`);
    const source = bytes instanceof Uint8Array ? Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]) : bytes;
    const sink = createWriteStream(temp, { mode: 0o600, flags: 'wx' });
    try {
      await pipeline(source, new VerifyingStream(sha256, size), sink);
      await mkdir(join(this.dir, sha256.slice(0, 2)), { recursive: true, mode: 0o700 });
      // Same hash, same bytes: a blob already there is simply replaced by its equal.
      await rename(temp, target);
    } catch (error) {
      // A body that fails at once (the client went away) rejects the pipeline before the file is
      // opened, and opening it afterwards would leave it behind: remove it once the file is closed.
      if (!sink.closed) await new Promise<void>((resolve) => sink.once('close', () => resolve()));
      await unlink(temp).catch(() => undefined);
      throw error;
    }
  }

  async get(sha256: string, range?: ByteRange): Promise<EvidenceBlob | null> {
    const path = this.pathOf(sha256);
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) return null;
    const stream = createReadStream(path, range ? { start: range.start, end: range.end } : {});
    return { stream, size: info.size };
  }

  async delete(sha256: string): Promise<void> {
    await rm(this.pathOf(sha256), { force: true });
  }

  async *list(): AsyncIterable<ListedBlob> {
    for (const prefix of await readdir(this.dir)) {
      if (!/^[0-9a-f]{2}$/.test(prefix)) continue;
      for (const name of await readdir(join(this.dir, prefix))) {
        if (!isSha256(name) || !name.startsWith(prefix)) continue;
        const info = await stat(join(this.dir, prefix, name)).catch(() => null);
        if (info?.isFile()) yield { sha256: name, size: info.size, modifiedAt: info.mtimeMs };
      }
    }
  }

  stats(): Promise<EvidenceStats> {
    return statsOf(this.list());
  }

  async close(): Promise<void> {}
}
