import type { User } from '../../../../core/api/auth.js';

/**
 * The review dialog opens by itself once per session, and only for someone who can act on it
 * (members cannot review): after it was closed, the banner is the reminder. Kept in
 * sessionStorage so a reload or a second visit to the dashboard does not reopen it.
 */
const CLOSED_KEY = 'review_reminder_closed';

export function canReview(user: Pick<User, 'role'> | null | undefined): boolean {
  return user?.role === 'reviewer' || user?.role === 'admin';
}

export function reviewReminderClosed(sessionToken: string | undefined): boolean {
  return sessionToken !== undefined && readClosed() === sessionToken;
}

export function markReviewReminderClosed(sessionToken: string | undefined): void {
  if (sessionToken === undefined) return;
  try {
    sessionStorage.setItem(CLOSED_KEY, sessionToken);
  } catch {
    // Storage refused (private mode quota): the dialog may open once more, nothing worse.
  }
}

function readClosed(): string | null {
  try {
    return sessionStorage.getItem(CLOSED_KEY);
  } catch {
    return null;
  }
}
