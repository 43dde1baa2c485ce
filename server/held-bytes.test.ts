import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HeldBytes } from './held-bytes.js';

const sha = (parts: Iterable<string | Buffer>) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
};

describe('HeldBytes', () => {
  it('gives back the UTF-8 bytes hash.update(text) reads, across blocks, for any text', () => {
    const texts: string[] = [];
    // Non-ASCII (2, 3 and 4 bytes), empty texts, and texts past a 1 MB block on their own.
    for (let i = 0; i < 30_000; i++) texts.push(i % 7 === 0 ? '' : `["t${i}","é ✓ 😀 ${'x'.repeat(i % 50)}"]`);
    texts.splice(100, 0, 'é'.repeat(600_000));
    texts.splice(20_000, 0, '😀'.repeat(400_000), 'a'.repeat(2_000_000));
    const held = new HeldBytes();
    for (const text of texts) held.add(text);
    const bytes = [...held.take()];
    expect(Buffer.concat(bytes).equals(Buffer.from(texts.join(''), 'utf8'))).toBe(true);
    expect(sha(bytes)).toBe(sha(texts));
    // Taken once: nothing is held afterwards.
    expect([...held.take()]).toEqual([]);
  });
});
