/**
 * Failure evidence: the attachments of a result's attempts (screenshots, videos, traces, the
 * error context), stored once each by SHA-256 and read through GET /api/evidence/{sha256}.
 */

export type AttachmentKind = 'screenshot' | 'video' | 'trace' | 'error-context' | 'other';

/**
 * Why an attachment has (or has no) blob:
 * - `stored`: `sha256` names a blob the server holds;
 * - `too-large`: over the size limit when collected;
 * - `not-found`: the report named a file that was not there (or outside the report's folders);
 * - `dropped`: removed later by the evidence quota or prune;
 * - `not-stored`: the store failed, or an upload referenced a blob the server never received.
 */
export type AttachmentState = 'stored' | 'too-large' | 'not-found' | 'dropped' | 'not-stored';

export interface AttachmentInfo {
  name: string;
  contentType: string;
  kind: AttachmentKind;
  /** Set when the blob is (or was, for `dropped`) known; the link is /api/evidence/{sha256} only when `state` is `stored`. */
  sha256: string | null;
  size: number | null;
  state: AttachmentState;
}

/** One attempt of a result (retry 0 is the first), with its attachments in report order. */
export interface AttemptEvidence {
  retry: number;
  status: string;
  duration_ms: number;
  attachments: AttachmentInfo[];
}

export const ATTACHMENT_KINDS: readonly AttachmentKind[] = ['screenshot', 'video', 'trace', 'error-context', 'other'];
export const ATTACHMENT_STATES: readonly AttachmentState[] = ['stored', 'too-large', 'not-found', 'dropped', 'not-stored'];

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

/** The upload protocol: POST /api/evidence/missing with the hashes a run refers to; the answer lists those the server lacks. */
export interface EvidenceMissingRequest {
  sha256: string[];
}
export interface EvidenceMissingResponse {
  missing: string[];
}
/** Hashes per POST /api/evidence/missing call. */
export const EVIDENCE_MISSING_MAX = 5000;
