/** docs/api.md#the-uis-client-rules: test details are cached per test and browser for the life of the page (the first page of them). */
import type { Paged, TestResultDetail } from '../../../../core/api/analytics.js';
import { testDetails } from '../../api/calls.js';

const cache = new Map<string, Promise<Paged<TestResultDetail>>>();

/** The file always goes with the title: two tests of one title in different files are two histories; each branch is one more. */
export function cachedTestDetails(testTitle: string, browser: string, testFile: string, branch: string | null = null): Promise<Paged<TestResultDetail>> {
  const key = `${testTitle}\u0000${browser}\u0000${testFile}\u0000${branch ?? ''}`;
  let answer = cache.get(key);
  if (!answer) {
    const loading = testDetails(testTitle, browser, testFile, 1, 50, branch);
    // A failure is not cached: the next opening tries again.
    loading.catch(() => cache.delete(key));
    cache.set(key, loading);
    answer = loading;
  }
  return answer;
}

/** New data was imported or reviewed: cached histories may be out of date. */
export function clearTestDetailsCache(): void {
  cache.clear();
}
