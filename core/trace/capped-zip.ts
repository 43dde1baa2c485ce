import { Inflate } from 'fflate';

/** What reading a zip may cost: how much it may expand to in all, and how many entries it may list. */
export interface ZipCaps {
  maxExpandedBytes: number;
  maxEntries: number;
}

export class ZipRefused extends Error {
  override name = 'ZipRefused';
}

interface Entry {
  name: string;
  method: number;
  compressedSize: number;
  declaredSize: number;
  headerOffset: number;
}

// Fed to the inflater a little at a time: one push can expand at most ~1000 times its input, so
// the count below stops a zip bomb within a few megabytes of the cap, never after.
const INPUT_CHUNK = 4096;

/**
 * The entries of a zip whose names `wanted` accepts, expanded under `caps`: a zip that would
 * expand beyond them is refused before or while expanding, never unpacked. The sizes a zip
 * declares are not believed; the bytes that come out are counted.
 */
export function readZipEntries(zip: Uint8Array, wanted: (name: string) => boolean, caps: ZipCaps): Map<string, Uint8Array> {
  const entries = centralDirectory(zip, caps.maxEntries);
  const out = new Map<string, Uint8Array>();
  let left = caps.maxExpandedBytes;
  for (const entry of entries) {
    if (!wanted(entry.name)) continue;
    if (entry.declaredSize > left) throw tooBig(caps);
    const data = entryData(zip, entry);
    let bytes: Uint8Array;
    if (entry.method === 0) bytes = data;
    else if (entry.method === 8) bytes = inflateCapped(data, left, caps);
    else throw new ZipRefused(`${entry.name} uses compression method ${entry.method}, which a trace never does`);
    left -= bytes.length;
    if (left < 0) throw tooBig(caps);
    out.set(entry.name, bytes);
  }
  return out;
}

/** Every entry's name, from the central directory alone (nothing is expanded). */
export function listZipEntries(zip: Uint8Array, maxEntries: number): string[] {
  return centralDirectory(zip, maxEntries).map((entry) => entry.name);
}

function tooBig(caps: ZipCaps): ZipRefused {
  return new ZipRefused(`the archive expands beyond ${Math.round(caps.maxExpandedBytes / (1024 * 1024))} MB: refused, not unpacked`);
}

function inflateCapped(data: Uint8Array, left: number, caps: ZipCaps): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const inflate = new Inflate((chunk) => {
    total += chunk.length;
    if (total > left) throw tooBig(caps);
    chunks.push(chunk);
  });
  try {
    for (let at = 0; at < data.length; at += INPUT_CHUNK) {
      const end = Math.min(at + INPUT_CHUNK, data.length);
      inflate.push(data.subarray(at, end), end === data.length);
    }
    if (data.length === 0) inflate.push(new Uint8Array(0), true);
  } catch (error) {
    if (error instanceof ZipRefused) throw error;
    throw new ZipRefused(`the archive is damaged: ${(error as Error).message}`);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

function centralDirectory(zip: Uint8Array, maxEntries: number): Entry[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const eocd = findEndOfDirectory(view);
  const count = view.getUint16(eocd + 10, true);
  let at = view.getUint32(eocd + 16, true);
  if (count === 0xffff || at === 0xffffffff) throw new ZipRefused('the archive is a ZIP64 archive, larger than any trace this server reads');
  if (count > maxEntries) throw new ZipRefused(`the archive lists ${count} entries, more than the ${maxEntries} a trace may hold`);
  const entries: Entry[] = [];
  const names = new TextDecoder();
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || view.getUint32(at, true) !== 0x02014b50) throw new ZipRefused('the archive is damaged: its directory is cut short');
    const nameLength = view.getUint16(at + 28, true);
    const skip = nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    if (at + 46 + skip > zip.length) throw new ZipRefused('the archive is damaged: its directory is cut short');
    entries.push({
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      declaredSize: view.getUint32(at + 24, true),
      headerOffset: view.getUint32(at + 42, true),
      name: names.decode(zip.subarray(at + 46, at + 46 + nameLength)),
    });
    at += 46 + skip;
  }
  return entries;
}

function findEndOfDirectory(view: DataView): number {
  // The end record is 22 bytes plus a comment of at most 65,535: a bounded search from the end.
  const last = view.byteLength - 22;
  for (let at = last; at >= 0 && at >= last - 0xffff; at--) {
    if (view.getUint32(at, true) === 0x06054b50) return at;
  }
  throw new ZipRefused('not a zip archive');
}

function entryData(zip: Uint8Array, entry: Entry): Uint8Array {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const at = entry.headerOffset;
  if (at + 30 > zip.length || view.getUint32(at, true) !== 0x04034b50) throw new ZipRefused(`the archive is damaged: ${entry.name} has no header`);
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const end = start + entry.compressedSize;
  if (end > zip.length) throw new ZipRefused(`the archive is damaged: ${entry.name} is cut short`);
  return zip.subarray(start, end);
}
