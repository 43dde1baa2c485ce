import type { SlowTest } from '../../../../core/api/analytics.js';
import { performanceLevel, SLOW_MS, VERY_SLOW_MS, type PerformanceLevel } from '../../../../core/analytics/formulas.js';

export interface SlowStats {
  total: number;
  /** Average over SLOW_MS (10 s). */
  slow: number;
  /** Average over VERY_SLOW_MS (30 s). */
  verySlow: number;
}

export function slowStats(tests: readonly SlowTest[]): SlowStats {
  return {
    total: tests.length,
    slow: tests.filter((t) => t.avg_duration > SLOW_MS).length,
    verySlow: tests.filter((t) => t.avg_duration > VERY_SLOW_MS).length,
  };
}

const LEVEL_COLORS: Record<PerformanceLevel, string> = { Fast: 'green', Medium: 'yellow', Slow: 'orange', 'Very Slow': 'red' };

/** The Performance badge of a row: its level (SPEC.md section 9) and that level's colour. */
export function performanceBadge(avgDurationMs: number): { label: PerformanceLevel; color: string } {
  const label = performanceLevel(avgDurationMs);
  return { label, color: LEVEL_COLORS[label] };
}
