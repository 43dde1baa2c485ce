/** The quarantine calls (docs/api.md#ci-gate-and-quarantine) as Zod schemas; core/api/quarantine.ts infers its types from them. */
import { z } from 'zod';
import { QUARANTINE_PATTERN_MAX } from '../../gate/classify.js';
import { queryWhole } from './paging.js';

const pattern = z.string().min(1).max(QUARANTINE_PATTERN_MAX);

export const quarantineView = z.object({
  id: z.number(),
  title: z.string().describe('Exact title, or a pattern with `*` wildcards'),
  file: z.string().nullable().describe('Exact file, a pattern with `*`, or null for any file'),
  project: z.string().nullable(),
  reason: z.string(),
  owner: z.string().nullable(),
  createdBy: z.string().nullable(),
  createdAt: z.number().describe('Milliseconds since 1970 (UTC)'),
  expiresAt: z.number().nullable().describe('The moment it stops applying; null for no end'),
  removedAt: z.number().nullable(),
  removedBy: z.string().nullable(),
  expired: z.boolean(),
  through: z.string().nullable().describe('The last UTC day it applies (YYYY-MM-DD), null for no end: the date every screen prints'),
});

export const quarantineListResponse = z.object({ entries: z.array(quarantineView), count: z.number() });

export const addQuarantineRequest = z.object({
  title: pattern,
  file: pattern.nullable().optional(),
  project: z.string().max(500).nullable().optional(),
  reason: z.string().min(1).max(2_000),
  owner: z.string().max(200).nullable().optional().describe("Absent: the test's owners (annotations, tags, CODEOWNERS)"),
  expires: z.string().max(20).optional().describe('14d, 4w, YYYY-MM-DD or never; default 30d'),
});

export const addQuarantineResponse = z.object({ entry: quarantineView });
export const quarantineIdParams = z.object({ id: queryWhole(1, Number.MAX_SAFE_INTEGER) });
