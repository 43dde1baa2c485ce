/** Links into the Flaky Test Analysis screen (SPEC.md section 2: query severity, test, file, browser). */

export function flakyTestHref(test: { test_title: string; test_file: string; browser: string }): string {
  return `/flaky-tests?${new URLSearchParams({ test: test.test_title, file: test.test_file, browser: test.browser })}`;
}

export function flakySeverityHref(severity: 'severe' | 'declining' | 'improving' | 'stable' | 'new'): string {
  return `/flaky-tests?severity=${severity}`;
}
