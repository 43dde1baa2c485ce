/** Failure evidence (docs/evidence.md) as Zod schemas; core/api/evidence.ts and trace-link.ts infer their types from them. */
import { z } from 'zod';
import { ATTACHMENT_KINDS, ATTACHMENT_STATES, EVIDENCE_MISSING_MAX, SHA256_PATTERN } from '../attachments.js';

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

/**
 * Bytes of any kind: binary in the document; the route sends a stream (an async iterable) or a
 * string, which Fastify sends as it is, never through a serializer.
 */
export const bytes = z.custom<AsyncIterable<unknown> | Uint8Array | string>(() => true).meta({ type: 'string', format: 'binary' });

/** An answer without a body (a 304): the document shows its description only. */
export const noBody = (description: string) => z.undefined().meta({ type: 'null', description });

/** A binary answer in the document: each content type it may have, its body bytes. */
export const binaryAnswer = (description: string, contentTypes: readonly string[]) => ({
  description,
  content: Object.fromEntries(contentTypes.map((type) => [type, { schema: bytes }])),
});

const sha256 = z.string().describe('The blob\'s SHA-256: 64 lowercase hex digits');

/** The route checks the hash itself, so a bad one is refused in its own words. */
export const blobParams = z.object({ sha256: sha256.max(64) });
export const blobQuery = z.object({
  download: z.string().max(5).optional().describe('`1` or `true`: as a download even when it could be shown inline'),
  name: z.string().max(500).optional().describe("The download's file name (safe characters kept)"),
});

/** Blobs are sent under their stored type: images and videos inline, the rest as a download. */
export const BLOB_CONTENT_TYPES = ['image/png', 'image/jpeg', 'video/webm', 'application/zip', 'text/markdown', 'text/plain', 'application/octet-stream', '*/*'] as const;

export const uploadBlobParams = z.object({ sha256: z.string().regex(new RegExp(SHA256_PATTERN)).describe("The blob's SHA-256: 64 lowercase hex digits") });
export const uploadBlobResponse = z.object({ sha256: z.string(), size: z.number().describe('Bytes stored') });

export const evidenceMissingRequest = z.object({
  sha256: z.array(z.string().regex(new RegExp(SHA256_PATTERN))).max(EVIDENCE_MISSING_MAX).describe('The hashes a run refers to'),
});
export const evidenceMissingResponse = z.object({
  missing: z.array(z.string()).describe('Those the server lacks: send each with PUT /api/evidence/{sha256}'),
  maxBytes: z.number().describe("The largest blob this server takes: a larger one is refused with a 413"),
});

export const traceLinkParams = z.object({ sha256: sha256 });
export const traceLinkResponse = z.object({
  url: z.string().describe('The viewer with the trace, on this server: open it in a new tab'),
  expiresAt: z.string().describe('When the link stops opening the trace (ISO 8601): a few minutes from now'),
  tracePlaywrightVersion: z.string().nullable().describe('The Playwright that recorded the trace, when it says'),
  viewerPlaywrightVersion: z.string().describe("The Playwright release whose trace viewer this server ships"),
  newerThanViewer: z.boolean().describe('The trace comes from a newer Playwright than the viewer: it may not open; offer the download'),
});

/** The signed link's two halves (POST .../trace-link makes them); checked by the route. */
export const signedTraceQuery = z.object({ expires: z.string().optional(), signature: z.string().optional() });
