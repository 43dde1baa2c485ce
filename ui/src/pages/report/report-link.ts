/** The address of the executive report of a window, on one branch when one is chosen (the report reads both from it). */
export function reportLink(days: number, branch: string | null): string {
  const params = new URLSearchParams({ days: String(days) });
  if (branch) params.set('branch', branch);
  return `/report?${params.toString()}`;
}

/** The dashboard the report came from: the branch goes back with it. */
export function dashboardLink(branch: string | null): string {
  return branch ? `/?${new URLSearchParams({ branch }).toString()}` : '/';
}
