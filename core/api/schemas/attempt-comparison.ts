/** The attempt comparison (docs/evidence.md, "Comparing attempts") as Zod schemas: the route's answer and query. */
import { z } from 'zod';

const traceAction = z.object({
  title: z.string(),
  locator: z.string().nullable().describe('As written in the test'),
  durationMs: z.number().nullable(),
  startMs: z.number().nullable().describe('After the first action of its trace'),
  error: z.string().nullable(),
});

const requestSide = z.object({ status: z.number().nullable(), failure: z.string().nullable(), durationMs: z.number().nullable() });

export const attemptComparison = z.object({
  aligned: z.array(z.object({ failing: traceAction.nullable(), passing: traceAction.nullable() })).describe('The two action lists matched by call and locator'),
  alignedOmitted: z.number().describe('Actions left out over the alignment cap'),
  partedAt: z
    .object({ index: z.number(), failing: traceAction.nullable(), passing: traceAction.nullable(), reason: z.enum(['outcome', 'only-failing', 'only-passing']) })
    .nullable()
    .describe('Where the failing attempt stopped doing what the passing one did'),
  slowerActions: z.array(z.object({ title: z.string(), locator: z.string().nullable(), failingMs: z.number(), passingMs: z.number() })),
  requestsOnlyFailing: z.array(z.object({ method: z.string(), url: z.string(), reason: z.enum(['failed', 'status', 'slower']), failing: requestSide, passing: requestSide.nullable() })),
  consoleErrorsOnlyFailing: z.array(z.object({ text: z.string(), location: z.string().nullable() })),
  pageErrorsOnlyFailing: z.array(z.string()),
});

const comparedAttempt = z.object({
  resultId: z.number(),
  runId: z.number(),
  retry: z.number().describe('0 is the first attempt'),
  status: z.string(),
  durationMs: z.number(),
  traceSha256: z.string().nullable(),
  gitCommit: z.string().nullable(),
  startedAt: z.string().describe('ISO 8601'),
});

const comparedFrame = z.object({
  url: z.string().describe('GET it for the image (image/jpeg)'),
  action: z.string().describe('The action whose end the frame shows'),
  atMs: z.number().describe('After the first action of its trace'),
});

export const attemptComparisonQuery = z.object({
  result: z.string().max(20).optional().describe('The id of a test result'),
  retry: z.string().max(5).optional().describe('The failed attempt (default: the first that failed)'),
});

export const attemptComparisonResponse = z.object({
  failing: comparedAttempt,
  passing: comparedAttempt.nullable(),
  partner: z.enum(['retry', 'same-commit', 'nearest']).nullable().describe('The passing retry in the same run, else a passing run on the same commit, else the nearest passing run in time'),
  partnerText: z.string().nullable().describe('The partner in plain words'),
  tracesMissing: z.boolean(),
  note: z.string().nullable(),
  comparison: attemptComparison.nullable(),
  frames: z.object({ failing: comparedFrame.nullable(), passing: comparedFrame.nullable() }).nullable().describe('Each attempt’s screencast frame where they parted'),
  framesNote: z.string().nullable(),
});

export const comparisonFrameQuery = attemptComparisonQuery.extend({
  side: z.string().max(10).optional().describe('failing or passing'),
  name: z.string().max(300).optional().describe('The frame’s entry in the trace, as the comparison gave it'),
});
