import type { AttemptComparisonResponse } from '../../../core/api/attempt-comparison.js';
import type { TraceLinkResponse } from '../../../core/api/trace-link.js';
import { AUTH_TOKEN_KEY } from '../session/storage.js';
import { ApiError, request } from './client.js';

/**
 * A stored blob's bytes. The evidence route wants the session's bearer header, which an <img>
 * or <video> cannot send: the page fetches the bytes and shows them from a blob: URL.
 */
export function fetchEvidence(sha256: string, signal?: AbortSignal): Promise<Blob> {
  return fetchBlob(`/api/evidence/${encodeURIComponent(sha256)}`, signal);
}

/** The bytes an API path answers with (an evidence blob, a comparison's frame), with the session's header. */
export async function fetchBlob(path: string, signal?: AbortSignal): Promise<Blob> {
  const token = localStorage.getItem(AUTH_TOKEN_KEY);
  const response = await fetch(path, { headers: token ? { authorization: `Bearer ${token}` } : {}, signal, credentials: 'same-origin' });
  if (!response.ok) {
    let message = `The evidence could not be loaded (status ${response.status})`;
    try {
      const body = (await response.json()) as { error?: unknown };
      if (typeof body.error === 'string') message = body.error;
    } catch {
      // Not JSON: the status says enough.
    }
    throw new ApiError(response.status, message, null);
  }
  return response.blob();
}

export const traceLink = (sha256: string) => request<TraceLinkResponse>(`/api/evidence/${encodeURIComponent(sha256)}/trace-link`, { method: 'POST' });

/** A failed attempt of a result beside its passing partner (GET /api/evidence/compare). */
export const attemptComparison = (resultId: number) => request<AttemptComparisonResponse>(`/api/evidence/compare?result=${resultId}`);
