import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { listZipEntries, readZipEntries, ZipRefused } from './capped-zip.js';

const CAPS = { maxExpandedBytes: 1024 * 1024, maxEntries: 100 };

function zeros(bytes: number): Uint8Array {
  return new Uint8Array(bytes);
}

describe('readZipEntries', () => {
  it('expands the wanted entries, stored or deflated, and leaves the others', () => {
    const zip = zipSync({ 'a.trace': strToU8('{"type":"x"}\n'.repeat(100)), 'b.txt': [strToU8('stored'), { level: 0 }], 'resources/big.png': zeros(10) });
    const files = readZipEntries(zip, (name) => !name.startsWith('resources/'), CAPS);
    expect([...files.keys()].sort()).toEqual(['a.trace', 'b.txt']);
    expect(new TextDecoder().decode(files.get('b.txt'))).toBe('stored');
    expect(files.get('a.trace')!.length).toBe(1300);
  });

  it('refuses a zip bomb by what it declares, before expanding it', () => {
    const zip = zipSync({ 'bomb.trace': zeros(5 * 1024 * 1024) });
    expect(zip.length).toBeLessThan(50_000);
    expect(() => readZipEntries(zip, () => true, CAPS)).toThrow(/expands beyond 1 MB: refused, not unpacked/);
  });

  it('refuses a zip bomb that lies about its size, by counting what comes out', () => {
    const zip = zipSync({ 'bomb.trace': zeros(5 * 1024 * 1024) });
    // Declare 10 bytes in the central directory (the uncompressed size at offset 24 of the entry).
    const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    const directory = zip.length - 22 - (46 + 'bomb.trace'.length);
    expect(view.getUint32(directory, true)).toBe(0x02014b50);
    view.setUint32(directory + 24, 10, true);
    expect(() => readZipEntries(zip, () => true, CAPS)).toThrow(ZipRefused);
  });

  it('counts every entry against one budget', () => {
    const files: Record<string, Uint8Array> = {};
    for (let i = 0; i < 5; i++) files[`${i}.trace`] = zeros(300 * 1024);
    expect(() => readZipEntries(zipSync(files), () => true, CAPS)).toThrow(/expands beyond/);
  });

  it('refuses an archive that lists more entries than the cap, and says what is wrong with damaged ones', () => {
    const many: Record<string, Uint8Array> = {};
    for (let i = 0; i < 101; i++) many[`${i}.trace`] = zeros(1);
    expect(() => listZipEntries(zipSync(many), 100)).toThrow(/lists 101 entries, more than the 100/);
    expect(() => readZipEntries(strToU8('not a zip at all, just text'), () => true, CAPS)).toThrow(/not a zip archive/);
    const zip = zipSync({ 'a.trace': strToU8('x'.repeat(5000)) });
    expect(() => readZipEntries(zip.subarray(0, 40), () => true, CAPS)).toThrow(ZipRefused);
    const corrupt = zip.slice();
    corrupt.fill(0xff, 40, 60);
    expect(() => readZipEntries(corrupt, () => true, CAPS)).toThrow(ZipRefused);
  });
});
