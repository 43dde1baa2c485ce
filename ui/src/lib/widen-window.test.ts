import { describe, expect, it } from 'vitest';
import { emptyWindowText, widenLabel, widerWindow } from './widen-window.js';

const now = new Date('2026-11-23T12:00:00Z');

describe('widening an empty window', () => {
  it('offers the narrowest range that holds the newest run', () => {
    const stored = (newest: string) => ({ runs: 29, newest, oldest: '2025-01-01T00:00:00Z' });
    expect(widerWindow(stored('2026-11-20T10:00:00Z'), now)).toBe(7);
    expect(widerWindow(stored('2026-10-01T10:00:00Z'), now)).toBe(90);
    expect(widerWindow(stored('2026-08-26T10:00:00Z'), now)).toBe(90);
    expect(widerWindow(stored('2026-08-25T10:00:00Z'), now)).toBe(0);
    expect(widenLabel(90)).toBe('Show the last 90 days');
    expect(widenLabel(0)).toBe('Show all time');
  });
  it('says how many runs there are and when the newest ran', () => {
    expect(emptyWindowText(30, { runs: 29, newest: '2026-09-14T08:00:00.000Z', oldest: null })).toBe('No runs in the last 30 days — 29 runs stored, the newest on 2026-09-14');
  });
});
