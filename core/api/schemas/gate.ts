/**
 * The CI gate's call (POST /api/check) as Zod schemas: what `flakeboard check --server` sends,
 * the failing tests of its report and not the report, and the verdict it gets back. The types
 * of core/gate/types.ts are the contract both sides compile against; gate.test.ts holds them equal.
 */
import { z } from 'zod';

const text = (max: number) => z.string().max(max);
const count = z.number().int().min(0).max(10_000_000);

export const gateTest = z.object({
  title: text(2_000),
  titlePath: z.array(text(2_000)).max(100).describe('The title path inside the file (describe blocks, then the test)'),
  file: text(2_000),
  project: text(500),
  browser: text(500),
  passedOnRetry: z.boolean().describe('Failed on its first attempt and passed on a retry'),
});

export const checkRequest = z.object({
  base: text(255).nullable().optional().describe('The base branch; null or absent tries main, then master'),
  days: z.number().int().min(1).max(365),
  counts: z.object({ tests: count, failed: count, flaky: count, skipped: count }),
  tests: z.array(gateTest).max(5_000).describe('The failed and flaky tests of the report'),
});

const gateStatus = z.enum(['passed', 'failed', 'skipped']);

export const gateFailure = z.object({
  title: z.string(),
  file: z.string(),
  project: z.string(),
  browser: z.string(),
  class: z.enum(['new', 'flaky', 'broken-on-base', 'quarantined']),
  reason: z.string(),
  evidence: z.array(z.object({ runId: z.number(), date: z.string(), commit: z.string().nullable(), status: gateStatus, passedOnRetry: z.boolean() })),
  onBase: z.object({ runs: z.number(), failed: z.number(), passedOnRetry: z.number() }).optional(),
  owners: z.array(z.string()).optional(),
  quarantine: z.object({ id: z.number(), reason: z.string(), owner: z.string().nullable(), expiresAt: z.string().nullable(), through: z.string().nullable() }).optional(),
});

export const gateAnswer = z.object({
  verdict: z.enum(['pass', 'fail']).describe('fail only when a new failure is there'),
  base: z.string(),
  windowDays: z.number(),
  baseRuns: z.number(),
  littleHistory: z.boolean(),
  runLooksBroken: z.boolean().describe('Over 80 % of the checked run failed'),
  counts: z.object({ tests: z.number(), failed: z.number(), flaky: z.number() }),
  failures: z.array(gateFailure),
});
