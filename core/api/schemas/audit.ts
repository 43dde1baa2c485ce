/** GET /api/audit (docs/audit.md) as Zod schemas; core/api/audit.ts infers its types from them. */
import { z } from 'zod';
import { pageNumber, pageSize } from './paging.js';

/** Who acted (core/api/audit.ts, AuditActorKind). */
export const AUDIT_ACTOR_KINDS = ['user', 'token', 'cli', 'system'] as const;

const text = (max: number) => z.string().min(1).max(max);

export const auditQuery = z.object({
  page: pageNumber,
  pageSize,
  actor: text(200).optional().describe("The actor's name, exactly (case ignored)"),
  action: text(100).optional().describe('An action (`run.upload`), or every action of a subject (`run.`)'),
  target: text(300).optional().describe('A target type (`run`), or type and id (`run:42`)'),
  since: text(40).optional().describe('A date (YYYY-MM-DD, UTC midnight) or an ISO 8601 time'),
  until: text(40).optional().describe('A date (YYYY-MM-DD, UTC midnight) or an ISO 8601 time; excluded'),
});

export const auditEntry = z.object({
  id: z.number(),
  at: z.string().describe('ISO 8601, UTC'),
  actor: z.object({ kind: z.enum(AUDIT_ACTOR_KINDS), id: z.number().nullable(), name: z.string().nullable() }),
  source: z.string().describe('The request\'s address, or `cli on HOST`, or `server`'),
  action: z.string().describe('`subject.verb` (docs/audit.md lists them)'),
  target: z.object({ type: z.string(), id: z.string().nullable(), label: z.string().nullable() }).nullable(),
  detail: z.record(z.string(), z.unknown()).nullable(),
});

/** Always the page object, newest first: the trail has no bare-list form. */
export const auditPage = z.object({ items: z.array(auditEntry), total: z.number(), page: z.number(), pageSize: z.number() });
