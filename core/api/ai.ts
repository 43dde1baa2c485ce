/**
 * POST /api/ai-analysis: docs/api.md#ai-analysis. The types are inferred from the Zod schemas of
 * schemas/ai.ts (type-only: the UI bundles no Zod).
 */
import type { z } from 'zod';
import type * as s from './schemas/ai.js';

/** The detail dialog's summary figures of one test on one browser (passRate: a 0-1 fraction, or a percent above 1). */
export type AiTestSummary = z.infer<typeof s.aiTestSummary>;

/** One row of the dialog's Test History, as the UI sends it. */
export type AiRecentResult = z.infer<typeof s.aiRecentResult>;

/** As the worker reads it: the summary's figures default to 0. */
export type AiAnalysisRequest = z.infer<typeof s.aiAnalysisRequest>;

export type AiRecommendationDetail = z.infer<typeof s.aiRecommendationDetail>;

/** Each recommended fix is plain text or an object with title, description and optional codeExample. */
export type AiRecommendation = string | AiRecommendationDetail;

/**
 * The answer: what the failures have in common, their cause class and the claims it rests on
 * (with the runs and error lines of each), and what to do. Which engine answered: the rules
 * that run locally, or the configured model. `browserNotes` is exactly NO_BROWSER_PATTERNS when
 * nothing browser-specific was found (the UI hides it).
 */
export type AiAnalysisResult = z.infer<typeof s.aiAnalysisResult>;

/** One run a claim rests on: a stored run (its id links to it) or a result the UI sent. */
export type AiEvidenceRun = z.infer<typeof s.aiEvidenceRun>;

/** Where in the failing attempt's trace a claim's moment is (the viewer opens at the failed action; other moments are named beside the link). */
export type AiTraceMoment = z.infer<typeof s.aiTraceMoment>;

export type AiEvidenceItem = z.infer<typeof s.aiEvidenceItem>;

/** Below this, an answer says in words that its confidence is low. */
export const LOW_CONFIDENCE = 0.45;

export const NO_BROWSER_PATTERNS = 'No browser-specific patterns detected';

