import { describe, expect, it } from 'vitest';
import { durationColor } from './duration-color.js';

describe('durationColor', () => {
  it('over 30 s is bad, over 10 s a warning, the limits themselves are not', () => {
    expect(durationColor(30_001)).toBe('red');
    expect(durationColor(30_000)).toBe('orange');
    expect(durationColor(10_001)).toBe('orange');
    expect(durationColor(10_000)).toBeUndefined();
    expect(durationColor(0)).toBeUndefined();
  });
});
