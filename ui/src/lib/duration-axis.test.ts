import { describe, expect, it } from 'vitest';
import { durationAxis, durationUnit } from './duration-axis.js';

const labels = (maxMs: number) => {
  const axis = durationAxis(maxMs);
  return axis.ticks.map(axis.format);
};

describe('durationAxis', () => {
  it('picks one unit from the largest value, by the duration display thresholds', () => {
    expect(durationUnit(999)).toBe('ms');
    expect(durationUnit(1000)).toBe('s');
    expect(durationUnit(59_999)).toBe('s');
    expect(durationUnit(60_000)).toBe('m');
  });

  it('labels every tick in that unit: no 0ms beside 25.0s beside 1.3m', () => {
    // The run that read '0ms, 25.0s, 1.3m': a slowest test of 78 s.
    expect(labels(78_000)).toEqual(['0m', '0.5m', '1m', '1.5m']);
    expect(labels(50_000)).toEqual(['0s', '20s', '40s', '60s']);
    expect(labels(9_300)).toEqual(['0s', '2.5s', '5s', '7.5s', '10s']);
    expect(labels(640)).toEqual(['0ms', '200ms', '400ms', '600ms', '800ms']);
    expect(labels(3)).toEqual(['0ms', '1ms', '2ms', '3ms']);
  });

  it('reaches the largest value: the last tick is at or above it', () => {
    for (const max of [1, 7, 999, 1000, 12_345, 59_999, 60_000, 3_600_000, 5_432_100]) {
      const axis = durationAxis(max);
      expect(axis.ticks[0]).toBe(0);
      expect(axis.ticks.at(-1)!).toBeGreaterThanOrEqual(max);
      expect(axis.ticks.length).toBeLessThanOrEqual(6);
      expect(new Set(axis.ticks.map(axis.format).map((l) => l.replace(/[\d.]+/, ''))).size).toBe(1);
    }
  });

  it('gives an axis of nothing a 0 and one step', () => {
    expect(labels(0)).toEqual(['0ms', '1ms']);
  });
});
