import { describe, expect, it } from 'vitest';
import { parseDays, periodLabel } from './time-range.js';

describe('days', () => {
  it('reads the days query with 30 as the default and 0 as all time', () => {
    expect(parseDays(null)).toBe(30);
    expect(parseDays('7')).toBe(7);
    expect(parseDays('0')).toBe(0);
    expect(parseDays('-3')).toBe(30);
    expect(parseDays('abc')).toBe(30);
    expect(periodLabel(0)).toBe('All Time');
    expect(periodLabel(7)).toBe('Last 7 Days');
  });
});
