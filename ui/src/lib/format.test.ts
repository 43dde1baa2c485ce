import { describe, expect, it } from 'vitest';
import { fileName, flakyPassRateColor, formatDate, formatDateTime, fractionPercent, isMultiBrowser, parseTimestamp, passRateColor, percent, truncate } from './format.js';

describe('the display rules of docs/screens.md#display-rules', () => {
  it('shows rates with one decimal', () => {
    expect(percent(87.25)).toBe('87.3%');
    expect(percent(Number.NaN)).toBe('0.0%');
    expect(fractionPercent(0.5)).toBe('50.0%');
  });

  it('colours pass rates at 90 and 70 (percent) and flaky pass rates at 0.5 and 0.8 (fraction)', () => {
    expect([90, 89.9, 70, 69.9].map(passRateColor)).toEqual(['green', 'yellow', 'yellow', 'red']);
    expect([0.49, 0.5, 0.51, 0.79, 0.8].map(flakyPassRateColor)).toEqual(['red', 'red', 'yellow', 'yellow', 'green']);
  });

  it('cuts text at the limit with ... and keeps the last path segment of a file', () => {
    expect(truncate('a'.repeat(60), 60)).toBe('a'.repeat(60));
    expect(truncate('a'.repeat(61), 60)).toBe(`${'a'.repeat(60)}...`);
    expect(fileName('tests/shop/cart.spec.ts')).toBe('cart.spec.ts');
    expect(fileName('C:\\suite\\login.spec.ts')).toBe('login.spec.ts');
  });

  it('reads a timestamp without a zone as UTC, and says Unknown date when there is none', () => {
    expect(parseTimestamp('2026-11-20 10:00:00')?.toISOString()).toBe('2026-11-20T10:00:00.000Z');
    expect(parseTimestamp('2026-11-20T10:00:00')?.toISOString()).toBe('2026-11-20T10:00:00.000Z');
    expect(parseTimestamp('2026-11-20T10:00:00+02:00')?.toISOString()).toBe('2026-11-20T08:00:00.000Z');
    expect(parseTimestamp('2026-11-20T10:00:00.000Z')?.toISOString()).toBe('2026-11-20T10:00:00.000Z');
    expect(parseTimestamp('not a date')).toBeNull();
    expect(formatDateTime(null)).toBe('Unknown date');
    expect(formatDateTime('')).toBe('Unknown date');
  });

  it('writes dates and times in the locale and zone, as toLocaleString does, from one formatter for every call', () => {
    for (const value of ['2026-11-20 10:00:00', '2026-02-28T23:59:00Z', '2025-07-01T00:30:00+05:30']) {
      const date = parseTimestamp(value)!;
      expect(formatDateTime(value)).toBe(date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }));
      expect(formatDate(value)).toBe(date.toLocaleDateString(undefined, { dateStyle: 'medium' }));
    }
    expect(formatDate(null, 'never')).toBe('never');
  });

  it('knows a browser list when it sees one', () => {
    expect(isMultiBrowser('chromium, firefox')).toBe(true);
    expect(isMultiBrowser('chromium')).toBe(false);
    expect(isMultiBrowser(null)).toBe(false);
  });
});
