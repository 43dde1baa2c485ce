import { describe, expect, it } from 'vitest';
import { browserRows, healthLabel } from './browser-rows.js';

describe('browserRows', () => {
  it('computes the pass rate over all results, the health level and the failing flag', () => {
    const [a, b] = browserRows([
      { browser: 'chromium', passed: 90, failed: 5, skipped: 5, total: 100, avg_duration: 1000 },
      { browser: 'webkit', passed: 4, failed: 6, skipped: 0, total: 10, avg_duration: 2000 },
    ]);
    expect([a!.passRate, a!.health, a!.failingMoreThanPassing]).toEqual([90, 'excellent', false]);
    expect([b!.passRate, b!.health, b!.failingMoreThanPassing]).toEqual([40, 'critical', true]);
    expect(healthLabel('warning')).toBe('Warning');
  });
});
