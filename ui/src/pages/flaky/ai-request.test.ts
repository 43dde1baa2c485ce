import { describe, expect, it } from 'vitest';
import { AI_REQUEST_LIMITS } from '../../../../core/api/ai-limits.js';
import type { TestResultDetail } from '../../../../core/api/analytics.js';
import { aiAnalysisRequest } from './ai-request.js';

const result = (i: number, extra: Partial<TestResultDetail> = {}): TestResultDetail => ({
  id: i,
  run_id: i,
  test_file: 'cart.spec.ts',
  status: 'failed',
  outcome: 'unexpected',
  retries: 0,
  duration_ms: 1200,
  run_date: '2026-11-20T10:00:00.000Z',
  git_commit: null,
  git_branch: null,
  error_message: 'boom',
  error_location: 'cart.spec.ts:3:1',
  error_snippet: '> 3 | x',
  error_stack: 'stack',
  test_steps: '[]',
  attempts: [],
  ...extra,
});

describe('aiAnalysisRequest', () => {
  const entry = { browser: 'firefox', pass_rate: 0.6, total_runs: 10, failed_runs: 4 };

  it('sends the summary figures and maps each history row', () => {
    expect(aiAnalysisRequest('adds to cart', entry, [result(1)])).toEqual({
      testSummary: { testTitle: 'adds to cart', browser: 'firefox', passRate: 0.6, totalRuns: 10, failedRuns: 4 },
      recentResults: [
        { status: 'failed', duration: 1200, errorMessage: 'boom', errorLocation: 'cart.spec.ts:3:1', errorStack: 'stack', codeSnippet: '> 3 | x', testSteps: '[]', testFile: 'cart.spec.ts', runDate: '2026-11-20T10:00:00.000Z' },
      ],
    });
  });

  it('sends at most the limit of recent results, newest first as given, and caps long fields', () => {
    const history = Array.from({ length: AI_REQUEST_LIMITS.recentResults + 5 }, (_, i) => result(i, i === 0 ? { error_message: 'x'.repeat(AI_REQUEST_LIMITS.errorMessage + 1) } : {}));
    const body = aiAnalysisRequest('t', entry, history);
    expect(body.recentResults).toHaveLength(AI_REQUEST_LIMITS.recentResults);
    expect(body.recentResults[0]!.errorMessage).toHaveLength(AI_REQUEST_LIMITS.errorMessage);
  });
});
