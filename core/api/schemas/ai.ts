/**
 * POST /api/ai-analysis (docs/api.md#ai-analysis) as Zod schemas; core/api/ai.ts infers its types
 * from them. The body is read in chunks and checked in the analysis worker against its JSON
 * Schema (server/ai/request-body.ts): this one describes it, and a test keeps the two the same.
 */
import { z } from 'zod';
import { AI_REQUEST_LIMITS as LIMITS } from '../ai-limits.js';
import { CAUSE_CLASSES } from '../cause-classes.js';

const optionalText = (max: number) => z.string().max(max).nullable().optional();

export const aiTestSummary = z.strictObject({
  testTitle: z.string().min(1).max(LIMITS.title),
  browser: z.string().min(1).max(LIMITS.browser),
  passRate: z.number().min(0).max(100).default(0).describe('The UI\'s figure: a 0-1 fraction (a value above 1 is read as a percent)'),
  totalRuns: z.number().int().min(0).max(1e9).default(0),
  failedRuns: z.number().int().min(0).max(1e9).default(0),
});

export const aiRecentResult = z.strictObject({
  status: z.enum(['passed', 'failed', 'timedOut', 'skipped', 'interrupted']),
  duration: z.union([z.number(), z.string().max(30), z.null()]).optional().describe('Milliseconds (a numeric string is accepted too)'),
  errorMessage: optionalText(LIMITS.errorMessage),
  errorLocation: optionalText(LIMITS.shortText),
  errorStack: optionalText(LIMITS.errorStack),
  codeSnippet: optionalText(LIMITS.codeSnippet),
  testSteps: optionalText(LIMITS.testSteps).describe('JSON text of the steps (title, category, duration, error, steps), or null'),
  testFile: optionalText(LIMITS.shortText),
  runDate: optionalText(100).describe('ISO 8601'),
});

/** Exactly these fields at every level: anything else could reach the remote model, so it is refused by name. */
export const aiAnalysisRequest = z
  .strictObject({
    testSummary: aiTestSummary.describe("The detail dialog's summary figures of one test on one browser"),
    recentResults: z.array(aiRecentResult).max(LIMITS.recentResults).describe("The dialog's Test History rows"),
  })
  .describe(`At most ${LIMITS.bodyBytes / 1024 / 1024} MB; read and checked by the analysis worker`);

export const aiRecommendationDetail = z.object({ title: z.string(), description: z.string(), codeExample: z.string().optional() });

export const aiEvidenceRun = z.object({
  runId: z.number().int().nullable().describe('A stored run (it links to it), or null for a result the UI sent'),
  date: z.string().nullable().describe('ISO 8601'),
  commit: z.string().nullable(),
});

/**
 * Where in the failing attempt's trace a claim's moment is. Playwright's trace viewer reads only
 * the trace from its URL (it opens at the failed action), so the moment is named beside the link.
 */
export const aiTraceMoment = z.object({
  sha256: z.string().describe('The stored trace (opened through POST /api/evidence/{sha256}/trace-link)'),
  atMs: z.number().nullable().describe("Milliseconds after the trace's first action; null when the trace does not say"),
  action: z.string().nullable().describe('The action at that moment; null when none'),
  failedAction: z.boolean().describe('The viewer selects the failed action when it opens: true when the moment is that action'),
  shownIn: z.enum(['actions', 'network', 'console']).describe('Where the viewer lists it'),
});

export const aiEvidenceItem = z.object({
  claim: z.string(),
  runs: z.array(aiEvidenceRun),
  lines: z.array(z.string()).describe('Lines of the error text (excerpts) the claim reads'),
  trace: aiTraceMoment.optional().describe("The moment in the failing attempt's trace the claim describes, when it comes from the trace"),
});

export const aiAnalysisResult = z.object({
  patterns: z.array(z.string()),
  rootCause: z.string(),
  recommendations: z.array(z.union([z.string(), aiRecommendationDetail])).describe('Each fix is plain text or a title, description and optional codeExample'),
  browserNotes: z.string().describe('Exactly "No browser-specific patterns detected" when nothing browser-specific was found'),
  confidence: z.number().describe('0-1; grows with the evidence, never 1'),
  timestamp: z.string().describe('ISO 8601'),
  engine: z.enum(['local', 'model']).describe('The rules that run locally, or the configured model'),
  model: z.string().optional(),
  generatedInMs: z.number(),
  causeClass: z.enum(CAUSE_CLASSES).describe("The cause class the evidence points to; 'not-sure' when it does not decide"),
  evidence: z.array(aiEvidenceItem).describe('The claims behind the answer, each with the runs and error lines it rests on'),
  stability: z.enum(['flaky', 'steady']).describe('flaky: it failed and passed on retry, or on one commit; steady: every failure stayed a failure'),
  stabilityText: z
    .string()
    .describe('The same in plain words, from the data that decided it, e.g. "Flaky: failed, then passed on retry of the same code (1 of 2 failing runs)"; shown first by the UI'),
});
