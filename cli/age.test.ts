import { describe, expect, it } from 'vitest';
import { parseCutoff } from './age.js';

const NOW = Date.UTC(2026, 4, 31, 12, 30); // 2026-05-31 12:30 UTC

describe('parseCutoff', () => {
  it('counts days and weeks back from today, to the start of a UTC day (that day is kept)', () => {
    const today = Date.UTC(2026, 4, 31);
    expect(parseCutoff('90d', NOW)).toBe(today - 90 * 86_400_000);
    expect(new Date(parseCutoff('90d', NOW)).toISOString()).toBe('2026-03-02T00:00:00.000Z');
    expect(parseCutoff('12w', NOW)).toBe(today - 84 * 86_400_000);
  });

  it('counts calendar months and years, clamping to the last day of a shorter month', () => {
    expect(new Date(parseCutoff('3m', NOW)).toISOString()).toBe('2026-02-28T00:00:00.000Z');
    expect(new Date(parseCutoff('6m', NOW)).toISOString()).toBe('2025-11-30T00:00:00.000Z');
    expect(new Date(parseCutoff('1y', NOW)).toISOString()).toBe('2025-05-31T00:00:00.000Z');
  });

  it('takes a date as midnight UTC', () => {
    expect(parseCutoff('2026-01-15', NOW)).toBe(Date.UTC(2026, 0, 15));
  });

  it('refuses zero, nonsense, impossible and future dates with the reason', () => {
    expect(() => parseCutoff('0d', NOW)).toThrow('--older-than must be at least 1d, not "0d"');
    expect(() => parseCutoff('90', NOW)).toThrow('--older-than must be an age such as 90d, 12w, 6m or 1y, or a date YYYY-MM-DD, not "90"');
    expect(() => parseCutoff('2026-02-30', NOW)).toThrow('--older-than: 2026-02-30 is not a date');
    expect(() => parseCutoff('2027-01-01', NOW)).toThrow('is in the future');
  });
});
