/** How a broken test's runs read: every one of them failed. */
export function brokenRuns(failed: number): string {
  return failed === 1 ? 'its only run' : `all ${failed.toLocaleString('en-US')} runs`;
}
