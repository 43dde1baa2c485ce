import { percent } from './format.js';

/**
 * The first-attempt pass rate (docs/screens.md#status-rules: the first result decides) and the final one
 * (after retries) side by side, with a word on why they differ: a test that fails its first
 * attempt and passes its retry every run has a first-attempt rate of 0 % and a final one of 100 %.
 */
export function retryNote(firstPercent: number, finalPercent: number, passedOnRetry: number, ran: number): string | null {
  if (passedOnRetry <= 0 || finalPercent.toFixed(1) === firstPercent.toFixed(1)) return null;
  const runs = ran > 0 ? ` of ${ran.toLocaleString()}` : '';
  return `${percent(finalPercent)} after retries: ${passedOnRetry.toLocaleString()}${runs} failed the first attempt and passed on a retry`;
}

/** The report's and the dashboard's pass rate hint: the final rate, and why it differs. */
export function finalRateHint(f: { passRate: number; finalPassRate: number; passedOnRetry: number; totalTests: number }): string {
  return retryNote(f.passRate, f.finalPassRate, f.passedOnRetry, f.totalTests) ?? `First attempts; ${percent(f.finalPassRate)} after retries`;
}
