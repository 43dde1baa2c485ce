import { describe, expect, it } from 'vitest';
import { finalRateHint, retryNote } from './final-rate.js';

describe('retryNote', () => {
  it('says why a test that always passes on its retry shows 0.0 % first and 100.0 % after retries', () => {
    expect(retryNote(0, 100, 12, 12)).toBe('100.0% after retries: 12 of 12 failed the first attempt and passed on a retry');
    expect(retryNote(80, 80, 0, 10)).toBeNull();
  });
  it('the overall hint names the final rate even when nothing was retried', () => {
    expect(finalRateHint({ passRate: 90, finalPassRate: 90, passedOnRetry: 0, totalTests: 100 })).toBe('First attempts; 90.0% after retries');
    expect(finalRateHint({ passRate: 90, finalPassRate: 95, passedOnRetry: 5, totalTests: 100 })).toMatch(/^95\.0% after retries: 5 of 100/);
  });
});
