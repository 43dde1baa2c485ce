import { SLOW_MS, VERY_SLOW_MS } from '../../../../core/analytics/formulas.js';

/** docs/screens.md#run-details: over 30 s is bad, over 10 s a warning. */
export function durationColor(ms: number): 'red' | 'orange' | undefined {
  if (ms > VERY_SLOW_MS) return 'red';
  if (ms > SLOW_MS) return 'orange';
  return undefined;
}
