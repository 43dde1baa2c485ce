/** Links into the Flaky Test Analysis screen (SPEC.md section 2: query severity, test, file, browser). */

export function flakyTestHref(test: { test_title: string; test_file: string; browser: string }, branch = currentBranch()): string {
  return `/flaky-tests?${new URLSearchParams({ test: test.test_title, file: test.test_file, browser: test.browser, ...(branch ? { branch } : {}) })}`;
}

export function flakySeverityHref(severity: 'severe' | 'declining' | 'improving' | 'stable' | 'new', branch = currentBranch()): string {
  return `/flaky-tests?severity=${severity}${branch ? `&${new URLSearchParams({ branch })}` : ''}`;
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
