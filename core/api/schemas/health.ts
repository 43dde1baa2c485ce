/** GET /api/health (docs/api.md#health) as a Zod schema: the answer is checked and documented from it. */
import { z } from 'zod';

export const healthResponse = z.object({
  status: z.enum(['ok', 'degraded', 'unavailable']).describe('degraded: the evidence store does not answer, runs are still stored and read'),
  maxUploadBytes: z.number().int().describe('The largest report body the server takes'),
  database: z.object({ ok: z.boolean(), engine: z.enum(['sqlite', 'postgres']), error: z.string().optional().describe('Why it is not ok') }),
  evidence: z.object({ ok: z.boolean(), kind: z.enum(['none', 'folder', 's3']), error: z.string().optional().describe('Why it is not ok') }),
});

/** The database cannot be reached: the same answer with a 503, Retry-After and what to do. */
export const healthUnavailable = healthResponse.extend({ error: z.string() });

export type HealthResponse = z.infer<typeof healthResponse>;
