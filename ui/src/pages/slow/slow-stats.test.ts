import { describe, expect, it } from 'vitest';
import { performanceBadge } from './slow-stats.js';

describe('performanceBadge', () => {
  it('colours each performance level (docs/screens.md#performance-level)', () => {
    expect(performanceBadge(4999)).toEqual({ label: 'Fast', color: 'green' });
    expect(performanceBadge(5000)).toEqual({ label: 'Medium', color: 'yellow' });
    expect(performanceBadge(15000)).toEqual({ label: 'Slow', color: 'orange' });
    expect(performanceBadge(30000)).toEqual({ label: 'Very Slow', color: 'red' });
  });
});
