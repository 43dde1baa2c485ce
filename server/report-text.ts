import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
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
  for (const chunk of chunks) {
    let bytes = chunk;
    if (decoder === null) {
      const { encoding, bom } = detectReportEncoding(chunk);
      bytes = chunk.subarray(bom);
      decoder = encoding === 'utf-8' ? utf8Decoder() : utf16Decoder(encoding);
    }
    const text = decoder.write(bytes);
    if (text !== '') yield text;
  }
  const rest = decoder?.end() ?? '';
  if (rest !== '') yield rest;
}

// Node's own UTF-8 decoder: several times faster than TextDecoder.
function utf8Decoder() {
  const decoder = new StringDecoder('utf8');
  return {
    write: (bytes: Uint8Array) => decoder.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)),
    end: () => decoder.end(),
  };
}

function utf16Decoder(encoding: 'utf-16le' | 'utf-16be') {
  const decoder = new TextDecoder(encoding);
  return { write: (bytes: Uint8Array) => decoder.decode(bytes, { stream: true }), end: () => decoder.decode() };
}
