import { describe, expect, it } from 'vitest';
import { decodeChunks } from './report-text.js';

/** The bytes cut into chunks of `size`, as a file read in pieces would be. */
function cut(bytes: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return chunks;
}

describe('decodeChunks', () => {
  const text = '{"title": "naïve café ✓ 测试 😀𝄞", "bad": "x"}\n'.repeat(3);

  it('decodes UTF-8 (with or without a BOM) and UTF-16 cut anywhere, characters split between chunks included', () => {
    const utf8 = Buffer.from(text, 'utf8');
    const inputs = [
      utf8,
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8]),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
      Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]),
    ];
    for (const bytes of inputs) {
      for (let size = 1; size <= 9; size++) expect([...decodeChunks(cut(bytes, size))].join('')).toBe(text);
    }
  });

  it('invalid UTF-8 reads as Buffer reads it whole, wherever the chunks end', () => {
    const bytes = Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xe2, 0x82, 0x41, 0xf0, 0x9f, 0xff, 0x80, 0x80, 0xc3]), Buffer.from('"}')]);
    for (let size = 1; size <= 7; size++) expect([...decodeChunks(cut(bytes, size))].join('')).toBe(bytes.toString('utf8'));
  });
});
