/** Links into the Flaky Test Analysis screen (docs/screens.md#flaky-test-analysis: query severity, test, file, browser). */
import { DEFAULT_WINDOW_DAYS } from '../../../../core/analytics/formulas.js';

// The flaky screen shows the same window and branch as the screen that links to it; the
// default window needs no query.
function query(params: Record<string, string>, days: number, branch: string | null): URLSearchParams {
  return new URLSearchParams({ ...params, ...(days === DEFAULT_WINDOW_DAYS ? {} : { days: String(days) }), ...(branch ? { branch } : {}) });
}

export function flakyTestHref(test: { test_title: string; test_file: string; browser: string }, days = DEFAULT_WINDOW_DAYS, branch = currentBranch()): string {
  return `/flaky-tests?${query({ test: test.test_title, file: test.test_file, browser: test.browser }, days, branch)}`;
}

export function flakySeverityHref(severity: 'severe' | 'declining' | 'improving' | 'stable' | 'new', days = DEFAULT_WINDOW_DAYS, branch = currentBranch()): string {
  return `/flaky-tests?${query({ severity }, days, branch)}`;
}

/**
 * The dashboard's branch filter, which lives in the address (#/?branch=…): a link from a
 * filtered dashboard opens the flaky screen on the same branch, so its figures match.
 */
function currentBranch(): string | null {
  if (typeof window === 'undefined') return null;
  const hash = window.location.hash;
  const at = hash.indexOf('?');
  return at < 0 ? null : new URLSearchParams(hash.slice(at + 1)).get('branch') || null;
}
