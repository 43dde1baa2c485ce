/** POST /api/evidence/:sha256/trace-link: opens one trace in the viewer flakeboard serves. */
export interface TraceLinkResponse {
  /** The viewer with the trace, on this server: open it in a new tab. */
  url: string;
  /** When the link stops opening the trace (ISO 8601): a few minutes from now. */
  expiresAt: string;
  /** The Playwright that recorded the trace, when it says. */
  tracePlaywrightVersion: string | null;
  /** The Playwright release whose trace viewer this server ships. */
  viewerPlaywrightVersion: string;
  /** The trace comes from a newer Playwright than the viewer: it may not open; offer the download. */
  newerThanViewer: boolean;
}
