import type { AttachmentInfo, AttemptEvidence } from '../../../../core/api/evidence.js';
import type { AttachmentState } from '../../../../core/api/attachments.js';

const WHY: Record<Exclude<AttachmentState, 'stored'>, string> = {
  'too-large': 'not kept: it was larger than the size limit for evidence',
  'not-found': 'not kept: the file the report named was not there when the run was stored',
  dropped: 'removed later, to keep the evidence store within its size limit',
  'not-stored': 'not stored: the evidence store failed, or the upload did not carry it',
};

/** Why an attachment cannot be shown, or null when it can. */
export function missingReason(attachment: AttachmentInfo): string | null {
  return attachment.state === 'stored' && attachment.sha256 ? null : WHY[attachment.state === 'stored' ? 'not-stored' : attachment.state];
}

export const isFailedAttempt = (attempt: AttemptEvidence): boolean => attempt.status === 'failed' || attempt.status === 'timedOut' || attempt.status === 'interrupted';

/**
 * The attempts worth showing: every failed one, and for a flaky result the passing retry after
 * the last failure, to compare with it.
 */
export function attemptsToShow(attempts: readonly AttemptEvidence[]): { failed: AttemptEvidence[]; passingRetry: AttemptEvidence | null } {
  const failed = attempts.filter(isFailedAttempt);
  const last = attempts[attempts.length - 1];
  const passingRetry = failed.length > 0 && last && last.status === 'passed' ? last : null;
  return { failed, passingRetry };
}

export function formatBytes(size: number | null): string {
  if (size === null) return '';
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${Math.round(size / 102.4) / 10} KB`;
  return `${Math.round(size / (1024 * 102.4)) / 10} MB`;
}
