import { createHmac } from 'node:crypto';
import { safeEqual } from '../auth/tokens.js';

/**
 * Playwright's trace viewer loads a trace from a URL with its service worker, which cannot send
 * a bearer header. So a member gets a link that opens one trace for a few minutes: an HMAC with
 * a secret of the database over the blob's SHA-256 and the expiry. Nothing in it grants more
 * than that blob, and it is worthless once expired; the session token never enters a URL.
 */
export const TRACE_LINK_TTL_MS = 10 * 60 * 1000;

export interface TraceLink {
  sha256: string;
  /** Milliseconds since the epoch. */
  expires: number;
  signature: string;
}

export function signTraceLink(secret: string, sha256: string, now: number, ttlMs = TRACE_LINK_TTL_MS): TraceLink {
  const expires = now + ttlMs;
  return { sha256, expires, signature: signature(secret, sha256, expires) };
}

/** Why a link does not open its trace, or null when it does. */
export function checkTraceLink(secret: string, link: { sha256: string; expires: string | undefined; signature: string | undefined }, now: number): string | null {
  if (!link.expires || !link.signature || !/^\d{1,15}$/.test(link.expires)) return 'This trace link is incomplete: open the trace again from flakeboard';
  const expires = Number(link.expires);
  if (!safeEqual(link.signature, signature(secret, link.sha256, expires))) return 'This trace link is not valid: open the trace again from flakeboard';
  if (expires <= now) return 'This trace link has expired: open the trace again from flakeboard';
  return null;
}

/** The path the viewer fetches the trace from (relative to the server's origin). */
export function signedTracePath(link: TraceLink): string {
  return `/api/evidence/${link.sha256}/trace.zip?expires=${link.expires}&signature=${link.signature}`;
}

function signature(secret: string, sha256: string, expires: number): string {
  return createHmac('sha256', secret).update(`trace-link:${sha256}:${expires}`).digest('base64url');
}
