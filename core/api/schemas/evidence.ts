/** Failure evidence (docs/evidence.md) as Zod schemas; core/api/evidence.ts infers its types from them. */
import { z } from 'zod';
import { ATTACHMENT_KINDS, ATTACHMENT_STATES } from '../evidence.js';

export const attachmentInfo = z.object({
  name: z.string(),
  contentType: z.string(),
  kind: z.enum(ATTACHMENT_KINDS),
  sha256: z.string().nullable().describe('Set when the blob is (or was, for `dropped`) known; the link is /api/evidence/{sha256} only when `state` is `stored`'),
  size: z.number().nullable(),
  state: z.enum(ATTACHMENT_STATES),
});

export const attemptEvidence = z.object({
  retry: z.number().describe('0 is the first attempt'),
  status: z.string(),
  duration_ms: z.number(),
  attachments: z.array(attachmentInfo),
});
