import { useState } from 'react';
import type { PendingUpload } from '../../../../core/api/uploads.js';
import * as api from '../../api/calls.js';
import { ApiError } from '../../api/client.js';
import type { ReviewAction } from './use-pending-uploads.js';

const VERB: Record<ReviewAction, string> = { approve: 'keep', reject: 'delete' };

/**
 * Keep or Delete for one upload or the selected ones; the uploads under review are busy until
 * the server answers, and `settle` takes the reviewed ones off the list.
 */
export function useReviewActions(settle: (reviewed: PendingUpload[], action: ReviewAction) => void) {
  const [busy, setBusy] = useState<ReadonlySet<number>>(new Set());
  const markBusy = (ids: number[], on: boolean) =>
    setBusy((previous) => {
      const next = new Set(previous);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });

  const reviewOne = async (upload: PendingUpload, action: ReviewAction) => {
    markBusy([upload.id], true);
    try {
      await api.reviewUpload(upload.id, action);
      settle([upload], action);
    } catch (error) {
      console.error('Failed to review upload', error);
      window.alert((error instanceof ApiError && error.serverError) || 'Failed to review upload. Please try again.');
    } finally {
      markBusy([upload.id], false);
    }
  };

  /** `list` is the selection this action applies to (a bulk Keep leaves duplicates out). */
  const reviewSelected = async (list: PendingUpload[], action: ReviewAction) => {
    if (list.length === 0) {
      window.alert('Please select at least one upload to review.');
      return;
    }
    if (!window.confirm(`Are you sure you want to ${VERB[action]} ${list.length} upload(s)?`)) return;
    const ids = list.map((u) => u.id);
    markBusy(ids, true);
    try {
      await api.bulkReview(ids.map((id) => ({ id, action })));
      settle(list, action);
    } catch (error) {
      console.error('Failed to bulk review uploads', error);
      // A refusal says why (second-person approval: one of them is the reviewer's own upload).
      window.alert((error instanceof ApiError && error.status === 403 && error.serverError) || 'Failed to bulk review uploads. Please try again.');
    } finally {
      markBusy(ids, false);
    }
  };

  return { busy, reviewOne, reviewSelected };
}
