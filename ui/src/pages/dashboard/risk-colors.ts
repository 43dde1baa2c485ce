import type { RiskLevel } from '../../../../core/analytics/formulas.js';

/** A risk score's badge colour by its level. */
export const RISK_COLORS: Record<RiskLevel, string> = { critical: 'red', high: 'orange', medium: 'yellow', low: 'green' };
