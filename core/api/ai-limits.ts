/**
 * POST /api/ai-analysis: how large each field and the whole body may be. Shared by the route's
 * schema (schemas/ai.ts), the worker's check of the body, and the UI, which trims before sending;
 * free of Zod so the UI can import it.
 */
export const AI_REQUEST_LIMITS = {
  recentResults: 200,
  title: 2000,
  browser: 200,
  errorMessage: 50_000,
  errorStack: 50_000,
  codeSnippet: 20_000,
  testSteps: 200_000,
  shortText: 2000,
  /** The whole body: the per-field caps alone would allow far more. */
  bodyBytes: 10 * 1024 * 1024,
} as const;
