import { performanceLevel, type PerformanceLevel } from '../../../../core/analytics/formulas.js';

const LEVEL_COLORS: Record<PerformanceLevel, string> = { Fast: 'green', Medium: 'yellow', Slow: 'orange', 'Very Slow': 'red' };

/** The Performance badge of a row: its level (docs/screens.md#performance-level) and that level's colour. */
export function performanceBadge(avgDurationMs: number): { label: PerformanceLevel; color: string } {
  const label = performanceLevel(avgDurationMs);
  return { label, color: LEVEL_COLORS[label] };
}
