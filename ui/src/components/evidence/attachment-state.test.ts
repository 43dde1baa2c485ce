import { describe, expect, it } from 'vitest';
import type { AttachmentInfo, AttemptEvidence } from '../../../../core/api/evidence.js';
import { attemptsToShow, formatBytes, missingReason } from './attachment-state.js';

const attachment = (state: AttachmentInfo['state'], sha256: string | null = 'a'.repeat(64)): AttachmentInfo => ({ name: 'screenshot', contentType: 'image/png', kind: 'screenshot', sha256, size: 10, state });
const attempt = (retry: number, status: string): AttemptEvidence => ({ retry, status, duration_ms: 1, attachments: [] });

describe('evidence on screen', () => {
  it('says why an attachment is missing, for every state but stored with a blob', () => {
    expect(missingReason(attachment('stored'))).toBeNull();
    expect(missingReason(attachment('stored', null))).toMatch(/^not stored/);
    expect(missingReason(attachment('too-large'))).toMatch(/larger than the size limit/);
    expect(missingReason(attachment('not-found'))).toMatch(/was not there/);
    expect(missingReason(attachment('dropped'))).toMatch(/removed later/);
    expect(missingReason(attachment('not-stored'))).toMatch(/^not stored/);
  });

  it('shows every failed attempt, and the passing retry of a flaky result to compare with', () => {
    expect(attemptsToShow([attempt(0, 'failed'), attempt(1, 'timedOut'), attempt(2, 'passed')])).toEqual({ failed: [attempt(0, 'failed'), attempt(1, 'timedOut')], passingRetry: attempt(2, 'passed') });
    expect(attemptsToShow([attempt(0, 'failed'), attempt(1, 'failed')]).passingRetry).toBeNull();
    expect(attemptsToShow([attempt(0, 'passed')])).toEqual({ failed: [], passingRetry: null });
  });

  it('names sizes', () => {
    expect([formatBytes(null), formatBytes(512), formatBytes(31_300), formatBytes(5 * 1024 * 1024)]).toEqual(['', '512 B', '30.6 KB', '5 MB']);
  });
});
