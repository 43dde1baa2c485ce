import type { TrendRecord } from '../../../../core/api/analytics.js';
import type { TrendDirection } from '../../../../core/analytics/formulas.js';

/**
 * Tests per trend_direction. A record is one test on one browser; a test counts once per
 * direction any of its browsers has, as the flaky screen's direction filter keeps it.
 */
export function trendCounts(records: readonly TrendRecord[]): Record<TrendDirection, number> {
  const seen: Record<TrendDirection, Set<string>> = { declining: new Set(), improving: new Set(), stable: new Set(), new: new Set() };
  for (const record of records) seen[record.trend_direction]?.add(JSON.stringify([record.test_file, record.test_title]));
  return { declining: seen.declining.size, improving: seen.improving.size, stable: seen.stable.size, new: seen.new.size };
}
