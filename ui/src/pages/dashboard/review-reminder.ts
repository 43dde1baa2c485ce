/**
 * The review dialog opens by itself once per sign-in, not on every return to the dashboard:
 * after the user closed it, the banner is the reminder. Kept for the page's lifetime only.
 */
let closedForSession: string | null = null;

export function reviewReminderClosed(sessionToken: string | undefined): boolean {
  return sessionToken !== undefined && closedForSession === sessionToken;
}

export function markReviewReminderClosed(sessionToken: string | undefined): void {
  if (sessionToken !== undefined) closedForSession = sessionToken;
}
