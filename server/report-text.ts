import { closeSync, openSync, readSync } from 'node:fs';
import { detectReportEncoding } from '../core/report/decode.js';

/** Big enough that per-chunk costs vanish, small enough to be nothing next to a report. */
export const CHUNK_BYTES = 8 * 1024 * 1024;

/** A report file's bytes, a chunk at a time (one buffer, reused: each chunk is decoded before the next read). */
export function* fileByteChunks(path: string, onRead?: (bytes: number) => void): Generator<Uint8Array, void, undefined> {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    for (;;) {
      const read = readSync(fd, buffer, 0, CHUNK_BYTES, null);
      if (read === 0) return;
      onRead?.(read);
      yield buffer.subarray(0, read);
    }
  } finally {
    closeSync(fd);
  }
}

export function* byteChunks(bytes: Uint8Array): Generator<Uint8Array, void, undefined> {
  for (let start = 0; start < bytes.length; start += CHUNK_BYTES) yield bytes.subarray(start, start + CHUNK_BYTES);
}

/**
 * Text of a report given as byte chunks: the encoding (UTF-8, UTF-16, with or without BOM) is
 * read from the first bytes as decodeReportBytes does, and characters split between chunks are
 * carried over.
 */
export function* decodeChunks(chunks: Iterable<Uint8Array>): Generator<string, void, undefined> {
  let decoder: { write(bytes: Uint8Array): string; end(): string } | null = null;
  // The first 4 bytes name the encoding: held until there are that many (or the input ends).
  let head: Uint8Array | null = null;
  const start = (bytes: Uint8Array): string => {
    const { encoding, bom } = detectReportEncoding(bytes);
    decoder = encoding === 'utf-8' ? utf8Decoder() : utf16Decoder(encoding);
    return decoder.write(bytes.subarray(bom));
  };
  for (const chunk of chunks) {
    let text: string;
    if (decoder !== null) text = (decoder as { write(bytes: Uint8Array): string }).write(chunk);
    else {
      head = head ? Buffer.concat([head, chunk]) : chunk.length >= 4 ? chunk : Buffer.from(chunk);
      if (head.length < 4) continue;
      text = start(head);
      head = null;
    }
    if (text !== '') yield text;
  }
  let rest = head ? start(head) : '';
  rest += (decoder as { end(): string } | null)?.end() ?? '';
  if (rest !== '') yield rest;
}

// Buffer's own UTF-8 decoding, with the bytes of a character cut by the chunk's end carried
// to the next chunk: twice as fast as StringDecoder on text that is not all ASCII.
function utf8Decoder() {
  let carry: Buffer | null = null;
  return {
    write(bytes: Uint8Array): string {
      let buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      if (carry) buffer = Buffer.concat([carry, buffer]);
      const end = completeEnd(buffer);
      // A copy: the chunk's buffer is reused for the next read.
      carry = end < buffer.length ? Buffer.from(buffer.subarray(end)) : null;
      return buffer.toString('utf8', 0, end);
    },
    end(): string {
      const rest = carry ? carry.toString('utf8') : '';
      carry = null;
      return rest;
    },
  };
}

/** Where the last complete UTF-8 character ends: before a lead byte whose sequence is cut. */
function completeEnd(buffer: Buffer): number {
  let i = buffer.length - 1;
  while (i >= 0 && buffer.length - i <= 4 && (buffer[i]! & 0xc0) === 0x80) i--;
  if (i < 0 || buffer.length - i > 4) return buffer.length;
  const lead = buffer[i]!;
  const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return buffer.length - i < length ? i : buffer.length;
}

function utf16Decoder(encoding: 'utf-16le' | 'utf-16be') {
  const decoder = new TextDecoder(encoding);
  return { write: (bytes: Uint8Array) => decoder.decode(bytes, { stream: true }), end: () => decoder.decode() };
}
