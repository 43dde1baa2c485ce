/** The body of POST /api/ai-analysis (docs/api.md#ai-analysis), built from what the dialog shows. */
import { type AiAnalysisRequest, type AiRecentResult } from '../../../../core/api/ai.js';
import { AI_REQUEST_LIMITS } from '../../../../core/api/ai-limits.js';
import type { BrowserEntry, TestResultDetail } from '../../../../core/api/analytics.js';

// The server rejects oversized fields; cutting them here keeps one huge stack from failing the request.
const cap = (text: string | null, max: number) => (text !== null && text.length > max ? text.slice(0, max) : text);

export function aiAnalysisRequest(testTitle: string, entry: Pick<BrowserEntry, 'browser' | 'pass_rate' | 'total_runs' | 'failed_runs'>, history: readonly TestResultDetail[]): AiAnalysisRequest {
  const recentResults: AiRecentResult[] = history.slice(0, AI_REQUEST_LIMITS.recentResults).map((r) => ({
    status: r.status,
    duration: r.duration_ms,
    errorMessage: cap(r.error_message, AI_REQUEST_LIMITS.errorMessage),
    errorLocation: cap(r.error_location, AI_REQUEST_LIMITS.shortText),
    errorStack: cap(r.error_stack, AI_REQUEST_LIMITS.errorStack),
    codeSnippet: cap(r.error_snippet, AI_REQUEST_LIMITS.codeSnippet),
    testSteps: cap(r.test_steps, AI_REQUEST_LIMITS.testSteps),
    testFile: cap(r.test_file, AI_REQUEST_LIMITS.shortText),
    runDate: r.run_date,
  }));
  return {
    testSummary: {
      testTitle: testTitle.slice(0, AI_REQUEST_LIMITS.title),
      browser: entry.browser.slice(0, AI_REQUEST_LIMITS.browser),
      passRate: entry.pass_rate,
      totalRuns: entry.total_runs,
      failedRuns: entry.failed_runs,
    },
    recentResults,
  };
}
