/** SPEC.md section 7: test details are cached per title and browser for the life of the page. */
import type { TestResultDetail } from '../../../../core/api/analytics.js';
import { testDetails } from '../../api/calls.js';

const cache = new Map<string, Promise<TestResultDetail[]>>();

export function cachedTestDetails(testTitle: string, browser: string): Promise<TestResultDetail[]> {
  const key = `${testTitle}\u0000${browser}`;
  let answer = cache.get(key);
  if (!answer) {
    answer = testDetails(testTitle, browser);
    // A failure is not cached: the next opening tries again.
    answer.catch(() => cache.delete(key));
    cache.set(key, answer);
  }
  return answer;
}

/** New data was imported or reviewed: cached histories may be out of date. */
export function clearTestDetailsCache(): void {
  cache.clear();
}
