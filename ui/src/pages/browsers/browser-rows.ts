import type { BrowserComparison } from '../../../../core/api/analytics.js';
import { browserHealth, passRatePercent, type BrowserHealth } from '../../../../core/analytics/formulas.js';

export interface BrowserRow extends BrowserComparison {
  /** passed / total × 100 */
  passRate: number;
  health: BrowserHealth;
  /** docs/screens.md#browser-health: a browser with more failures than passes is an issue. */
  failingMoreThanPassing: boolean;
}

export const HEALTH_COLORS: Record<BrowserHealth, string> = { excellent: 'green', good: 'teal', warning: 'yellow', critical: 'red' };

export function healthLabel(health: BrowserHealth): string {
  return health.charAt(0).toUpperCase() + health.slice(1);
}

export function browserRows(comparison: readonly BrowserComparison[]): BrowserRow[] {
  return comparison.map((b) => {
    const total = b.total ?? b.passed + b.failed + (b.skipped ?? 0);
    const passRate = passRatePercent(b.passed, total);
    return { ...b, total, passRate, health: browserHealth(passRate), failingMoreThanPassing: b.failed > b.passed };
  });
}
