/**
 * What an attachment is and what became of its blob, how blobs are named, and how many hashes
 * one POST /api/evidence/missing may ask about: the terms the evidence schemas
 * (schemas/evidence.ts), the server, the CLI and the UI share, free of Zod.
 */
export const ATTACHMENT_KINDS = ['screenshot', 'video', 'trace', 'error-context', 'other'] as const;
export type AttachmentKind = (typeof ATTACHMENT_KINDS)[number];

/**
 * Why an attachment has (or has no) blob:
 * - `stored`: `sha256` names a blob the server holds;
 * - `too-large`: over the size limit when collected;
 * - `not-found`: the report named a file that was not there (or outside the report's folders);
 * - `dropped`: removed later by the evidence quota or prune;
 * - `not-stored`: the store failed, or an upload referenced a blob the server never received.
 */
export const ATTACHMENT_STATES = ['stored', 'too-large', 'not-found', 'dropped', 'not-stored'] as const;
export type AttachmentState = (typeof ATTACHMENT_STATES)[number];

/** 64 lowercase hex digits: the only blob names the API accepts. */
export const SHA256_PATTERN = '^[0-9a-f]{64}$';
export const isSha256 = (text: string): boolean => text.length === 64 && /^[0-9a-f]{64}$/.test(text);

/**
 * What an attachment is, from Playwright's names and content types: `screenshot` (image/png
 * named screenshot or a -actual/-diff/-expected image), `video` (video/*), `trace`
 * (application/zip named trace), `error-context` (Playwright's error-context.md / page snapshot).
 */
export function attachmentKind(name: string, contentType: string): AttachmentKind {
  const type = contentType.toLowerCase();
  const lower = name.toLowerCase();
  if (lower === 'trace' && (type === 'application/zip' || type === 'application/octet-stream')) return 'trace';
  if (type.startsWith('video/')) return 'video';
  if (type.startsWith('image/') && type !== 'image/svg+xml') return 'screenshot';
  if (lower === 'error-context' || lower === '_error-context' || lower === 'error context') return 'error-context';
  return 'other';
}

/** Hashes per POST /api/evidence/missing call. */
export const EVIDENCE_MISSING_MAX = 5000;
