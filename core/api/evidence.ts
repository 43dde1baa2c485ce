/**
 * Failure evidence: the attachments of a result's attempts (screenshots, videos, traces, the
 * error context), stored once each by SHA-256 and read through GET /api/evidence/{sha256}. The
 * API's types are inferred from schemas/evidence.ts (type-only: the UI bundles no Zod).
 */
import type { z } from 'zod';
import { ATTACHMENT_KINDS, ATTACHMENT_STATES, isSha256, type AttachmentKind, type AttachmentState } from './attachments.js';
import type * as s from './schemas/evidence.js';

/** An attachment's name, type, kind, blob and state (the fields are described in schemas/evidence.ts). */
export type AttachmentInfo = z.infer<typeof s.attachmentInfo>;

/** One attempt of a result (retry 0 is the first), with its attachments in report order. */
export type AttemptEvidence = z.infer<typeof s.attemptEvidence>;

/**
 * The upload protocol: POST /api/evidence/missing with the hashes a run refers to; the answer
 * lists those the server lacks, and the largest blob it takes.
 */
export type EvidenceMissingRequest = z.infer<typeof s.evidenceMissingRequest>;
export type EvidenceMissingResponse = z.infer<typeof s.evidenceMissingResponse>;

/**
 * One attachment's evidence in an upload's metadata (`metadata.evidence`): the test's place in
 * the report (0 for its first test, in the order the report lists them), the attempt, the
 * attachment's place in it, what it is, its blob's hash (sent before with PUT
 * /api/evidence/{sha256}) and size, and what became of it on the client (`too-large`,
 * `not-found`...). A `stored` hash the server lacks is recorded as `not-stored`.
 */
export type EvidenceEntry = [seq: number, retry: number, ordinal: number, kind: AttachmentKind, sha256: string | null, size: number | null, state: AttachmentState];

/** Entries one upload may carry. */
export const EVIDENCE_ENTRIES_MAX = 200_000;

/** What is wrong with an entry from a client, or null. */
export function evidenceEntryProblem(entry: unknown): string | null {
  if (!Array.isArray(entry) || entry.length !== 7) return 'must be [seq, retry, ordinal, kind, sha256, size, state]';
  const [seq, retry, ordinal, kind, sha256, size, state] = entry as unknown[];
  for (const n of [seq, retry, ordinal]) if (!Number.isSafeInteger(n) || (n as number) < 0) return 'seq, retry and ordinal must be whole numbers from 0';
  if (!ATTACHMENT_KINDS.includes(kind as AttachmentKind)) return `kind must be one of ${ATTACHMENT_KINDS.join(', ')}`;
  if (sha256 !== null && !(typeof sha256 === 'string' && isSha256(sha256))) return 'sha256 must be 64 lowercase hex digits or null';
  if (size !== null && !(Number.isSafeInteger(size) && (size as number) >= 0)) return 'size must be a whole number from 0 or null';
  if (!ATTACHMENT_STATES.includes(state as AttachmentState)) return `state must be one of ${ATTACHMENT_STATES.join(', ')}`;
  return null;
}
