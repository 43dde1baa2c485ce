import { describe, expect, it } from 'vitest';
import type { SlowTest } from '../../../../core/api/analytics.js';
import { performanceBadge, slowStats } from './slow-stats.js';

const test = (avg: number): SlowTest => ({ test_title: 't', test_full_title: 't', test_file: 'a.spec.ts', browser: 'chromium', project: 'chromium', avg_duration: avg, max_duration: avg, total_runs: 1 });

describe('slowStats', () => {
  it('counts slow as over 10 s and very slow as over 30 s, exclusive of the limits', () => {
    expect(slowStats([test(500), test(10_000), test(10_001), test(30_000), test(30_001)])).toEqual({ total: 5, slow: 3, verySlow: 1 });
  });
  it('is all zeros for no tests', () => {
    expect(slowStats([])).toEqual({ total: 0, slow: 0, verySlow: 0 });
  });
});

describe('performanceBadge', () => {
  it('colours each level of SPEC.md section 9', () => {
    expect(performanceBadge(4999)).toEqual({ label: 'Fast', color: 'green' });
    expect(performanceBadge(5000)).toEqual({ label: 'Medium', color: 'yellow' });
    expect(performanceBadge(15000)).toEqual({ label: 'Slow', color: 'orange' });
    expect(performanceBadge(30000)).toEqual({ label: 'Very Slow', color: 'red' });
  });
});
