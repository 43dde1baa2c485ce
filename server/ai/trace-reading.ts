/**
 * What the failing attempt's trace adds to the error text: the action and locator that failed,
 * the requests that failed or answered an error, console and page errors, and the action that
 * took the time. The trace arrives as bytes (plain data: the analysis may run in a worker) and
 * is read here, under the summary's caps; a trace that cannot be read adds nothing.
 */
import { ZipRefused } from '../../core/trace/capped-zip.js';
import { compareAttempts } from '../../core/trace/compare.js';
import { summariseTrace, type TraceAction, type TraceFailedRequest, type TraceSummary } from '../../core/trace/summary.js';

/** The traces of the latest failing result, as the route loaded them from the evidence store. */
export interface AnalysisTraces {
  failing?: Uint8Array;
  passing?: Uint8Array;
  /** The failing trace's SHA-256 in the evidence store: the answer's claims link to it. */
  failingSha256?: string;
}

export interface TraceFindings {
  /** The failing trace's SHA-256 when it is stored (claims link to it), else null. */
  sha256: string | null;
  /** startMs: when it started, in ms after the trace's first action (null when the trace does not say). */
  failingAction: { title: string; locator: string | null; durationMs: number | null; startMs: number | null } | null;
  /** Requests that answered 4xx/5xx or got no answer, first few, in the order they ended. */
  failedRequests: TraceFailedRequest[];
  consoleErrors: string[];
  pageErrors: string[];
  /** The action that took the longest, when it took most of the test's time (and ≥ 1 s). */
  slowest: { title: string; locator: string | null; durationMs: number; startMs: number | null } | null;
  /** Why the trace added nothing, when it could not be read. */
  unreadable: string | null;
  /**
   * A passing retry's trace was compared (core/trace/compare.ts): the requests and errors above
   * are then only those the failing attempt had, and this is where it parted from the passing one.
   */
  comparedWithPassing: { partedAt: string | null; slowerRequests: Array<{ method: string; url: string; failingMs: number | null; passingMs: number | null }> } | null;
}

const MAX_ITEMS = 5;
const MAX_TEXT = 300;
const clip = (s: string): string => (s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT)}…` : s);

export function readTraceFindings(traces: AnalysisTraces | undefined): TraceFindings | null {
  const zip = traces?.failing;
  if (!zip || zip.byteLength === 0) return null;
  let summary;
  try {
    summary = summariseTrace(zip);
  } catch (error) {
    const why = error instanceof ZipRefused ? error.message : 'not a Playwright trace zip';
    return { sha256: sha256Of(traces), failingAction: null, failedRequests: [], consoleErrors: [], pageErrors: [], slowest: null, unreadable: clip(why), comparedWithPassing: null };
  }
  const passing = readPassing(traces?.passing);
  // Errors the passing attempt had too did not make this one fail: only the failing attempt's own count.
  const diff = passing ? compareAttempts(summary, passing) : null;
  // The comparison does not carry when a request was sent: the failing trace's own list does.
  const sentAt = (r: { method: string; url: string; status: number | null }) => summary.requests.find((q) => q.method === r.method && q.url === r.url && q.status === r.status)?.startMs ?? null;
  const failedRequests: TraceFailedRequest[] = diff
    ? diff.requestsOnlyFailing.filter((r) => r.reason !== 'slower').map((r) => ({ method: r.method, url: r.url, status: r.failing.status, failure: r.failing.failure, startMs: sentAt({ method: r.method, url: r.url, status: r.failing.status }) }))
    : summary.failedRequests;
  const consoleErrors = diff ? diff.consoleErrorsOnlyFailing : summary.consoleErrors;
  const pageErrors = diff ? diff.pageErrorsOnlyFailing : summary.pageErrors;
  const failing = summary.failingAction;
  return {
    sha256: sha256Of(traces),
    failingAction: failing ? { title: clip(failing.title), locator: failing.locator ? clip(failing.locator) : null, durationMs: failing.durationMs, startMs: failing.startMs } : null,
    failedRequests: failedRequests.filter((r) => !isBrowserNoise(r)).slice(0, MAX_ITEMS).map((r) => ({ ...r, url: clip(r.url), startMs: r.startMs ?? null })),
    consoleErrors: consoleErrors.filter((c) => !c.text.startsWith('Failed to load resource')).slice(0, MAX_ITEMS).map((c) => clip(c.text)),
    pageErrors: pageErrors.slice(0, MAX_ITEMS).map(clip),
    slowest: slowestOf(summary.actions),
    unreadable: null,
    comparedWithPassing: diff
      ? {
          partedAt: diff.partedAt ? clip(partedText(diff.partedAt.failing ?? diff.partedAt.passing, diff.partedAt.reason)) : null,
          slowerRequests: diff.requestsOnlyFailing
            .filter((r) => r.reason === 'slower')
            .slice(0, MAX_ITEMS)
            .map((r) => ({ method: r.method, url: clip(r.url), failingMs: r.failing.durationMs, passingMs: r.passing?.durationMs ?? null })),
        }
      : null,
  };
}

const sha256Of = (traces: AnalysisTraces | undefined): string | null => (traces?.failingSha256 && /^[0-9a-f]{64}$/.test(traces.failingSha256) ? traces.failingSha256 : null);

/** A passing trace that cannot be read is left out: the failing one still says what it says. */
function readPassing(zip: Uint8Array | undefined): TraceSummary | null {
  if (!zip || zip.byteLength === 0) return null;
  try {
    return summariseTrace(zip);
  } catch {
    return null;
  }
}

function partedText(action: TraceAction | null, reason: 'outcome' | 'only-failing' | 'only-passing'): string {
  const what = action ? `${action.title}${action.locator ? ` on ${action.locator}` : ''}` : 'an action';
  return reason === 'outcome' ? `${what} ended differently` : reason === 'only-failing' ? `${what}, which only the failing attempt did` : `${what}, which only the passing attempt did`;
}

/** The favicon a page never asked for fails in every trace: it says nothing about the test. */
const isBrowserNoise = (r: TraceFailedRequest): boolean => /\/favicon\.ico(?:$|\?)/.test(r.url);

function slowestOf(actions: readonly TraceAction[]): TraceFindings['slowest'] {
  // Steps contain their actions; the innermost action is what took the time.
  const timed = actions.filter((a) => a.durationMs !== null && !a.title.startsWith('Step'));
  if (timed.length === 0) return null;
  const total = timed.reduce((n, a) => n + a.durationMs!, 0);
  const slowest = timed.reduce((a, b) => (b.durationMs! > a.durationMs! ? b : a));
  if (slowest.durationMs! < 1000 || slowest.durationMs! < 0.5 * total) return null;
  return { title: clip(slowest.title), locator: slowest.locator ? clip(slowest.locator) : null, durationMs: slowest.durationMs!, startMs: slowest.startMs };
}

/** The HTTP path of a URL, for claims (the query may hold anything). */
export function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.host}${u.pathname}`;
  } catch {
    return url.split('?')[0] ?? url;
  }
}
