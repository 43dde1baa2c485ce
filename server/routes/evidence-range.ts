import type { ByteRange } from '../store/evidence/evidence-store.js';

/**
 * The one range of a Range header (RFC 9110 §14.1.2), against a blob of `size` bytes:
 * `bytes=a-b`, `bytes=a-` or `bytes=-n`. `null`: no range, or one this server ignores (several
 * ranges, another unit), so the whole blob is sent; `'unsatisfiable'`: answered 416.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  if (header === undefined) return null;
  const match = /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header.trim());
  if (!match) return null;
  const [, first, last] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || (last !== '' && Number(last) < start)) return 'unsatisfiable';
  return { start, end };
}
