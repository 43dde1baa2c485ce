import { describe, expect, it } from 'vitest';
import { readableTextColor } from './readable-color.js';

describe('readableTextColor', () => {
  it('darkens yellow for the light theme only and leaves other colours alone', () => {
    expect(readableTextColor('yellow')).toBe('light-dark(var(--mantine-color-yellow-9), var(--mantine-color-yellow-5))');
    expect(readableTextColor('red')).toBe('red');
    expect(readableTextColor(undefined)).toBeUndefined();
  });
});
