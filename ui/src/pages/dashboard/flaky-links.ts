/** Links into the Flaky Test Analysis screen (SPEC.md section 2: query severity, test, file, browser). */
import { DEFAULT_WINDOW_DAYS } from '../../../../core/analytics/formulas.js';

// The flaky screen shows the same window as the screen that links to it; the default needs no query.
const withDays = (params: Record<string, string>, days: number) => new URLSearchParams(days === DEFAULT_WINDOW_DAYS ? params : { ...params, days: String(days) });

export function flakyTestHref(test: { test_title: string; test_file: string; browser: string }, days = DEFAULT_WINDOW_DAYS): string {
  return `/flaky-tests?${withDays({ test: test.test_title, file: test.test_file, browser: test.browser }, days)}`;
}

export function flakySeverityHref(severity: 'severe' | 'declining' | 'improving' | 'stable' | 'new', days = DEFAULT_WINDOW_DAYS): string {
  return `/flaky-tests?${withDays({ severity }, days)}`;
}
