import type { AiAnalysisResult } from '../core/api/ai.js';
import type { FlakyTestsPage, Paged, TestResultDetail } from '../core/api/analytics.js';
import type { QuarantineListResponse } from '../core/api/quarantine.js';
import type { RecentUpload, TestResultRow, UploadDetailResponse } from '../core/api/uploads.js';
import type { HistorySource } from './source.js';

export const HTTP_TIMEOUT_MS = 30_000;

/**
 * The history of a flakeboard server, through the read routes of its API with an API token
 * (`flakeboard token create`). The diagnosis is a POST that reads; nothing here writes.
 */
export function openHttpSource(server: string, token: string, options: { timeoutMs?: number; fetch?: typeof fetch } = {}): HistorySource {
  let base: URL;
  try {
    base = new URL(server.endsWith('/') ? server : `${server}/`);
  } catch {
    throw new Error(`--server must be the address of a flakeboard server, such as http://127.0.0.1:4680, not ${JSON.stringify(server)}`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error(`--server must be an http:// or https:// address, not ${base.protocol}`);
  if (!token) throw new Error('no API token: pass --token or set FLAKEBOARD_TOKEN (create one with `flakeboard token create NAME`)');
  const timeoutMs = options.timeoutMs ?? HTTP_TIMEOUT_MS;
  const fetchImpl = options.fetch ?? globalThis.fetch;

  async function call<T>(method: 'GET' | 'POST', path: string, query: Record<string, string | number | null> = {}, body?: unknown): Promise<T | null> {
    const url = new URL(path, base);
    for (const [key, value] of Object.entries(query)) if (value !== null) url.searchParams.set(key, String(value));
    const shown = `${method} ${url.origin}${url.pathname}`;
    let response: Response;
    try {
      response = await fetchImpl(url, {
        method,
        headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const { name, message } = error as Error;
      // fetch says "fetch failed"; what happened (ECONNREFUSED, ENOTFOUND, a bad port) is in its cause.
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const reason = name === 'TimeoutError' ? `no answer in ${timeoutMs / 1000} s` : (cause?.code ?? cause?.message ?? message);
      throw new Error(`cannot reach ${url.origin} (${shown}): ${reason}`, { cause: error });
    }
    const text = await response.text();
    if (response.status === 404 && method === 'GET' && path.startsWith('api/uploads/')) return null;
    if (!response.ok) {
      let message = text.slice(0, 300);
      try {
        message = (JSON.parse(text) as { error?: string }).error ?? message;
      } catch {
        // Not JSON (a proxy's error page): its first characters say enough.
      }
      const hint =
        response.status === 401 ? ' (check --token or FLAKEBOARD_TOKEN)' : response.status === 404 ? ' (is this a flakeboard server, and recent enough?)' : '';
      throw new Error(`${shown} answered ${response.status}: ${message}${hint}`);
    }
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new Error(`${shown} answered with something that is not JSON: is ${url.origin} a flakeboard server?`);
    }
  }
  const must = async <T>(answer: Promise<T | null>): Promise<T> => (await answer) as T;

  return {
    where: base.origin,
    flakyTests: (q) => must(call<FlakyTestsPage>('GET', 'api/flaky-tests', { days: q.days, search: q.search, browser: q.browser, page: q.page, pageSize: q.pageSize, sort: 'score', order: 'desc' })),
    quarantine: async () => (await must(call<QuarantineListResponse>('GET', 'api/quarantine'))).entries,
    testResults: (q) =>
      must(call<Paged<TestResultDetail>>('GET', `api/test-details/${encodeURIComponent(q.title)}/${encodeURIComponent(q.browser)}`, { file: q.file, page: q.page, pageSize: q.pageSize })),
    recentRuns: (q) => must(call<Paged<RecentUpload>>('GET', 'api/recent-uploads', { page: q.page, pageSize: q.pageSize })),
    async run(id, limit) {
      const detail = await call<UploadDetailResponse>('GET', `api/uploads/${id}`);
      if (!detail) return null;
      const failed = await must(call<Paged<TestResultRow>>('GET', `api/uploads/${id}/results`, { status: 'failed', sort: 'status', page: 1, pageSize: limit }));
      return { upload: detail.upload, failed, retried: { flakyTests: detail.flakyTests, flakyTestsTotal: detail.flakyTestsTotal } };
    },
    analyse: (request) => must(call<AiAnalysisResult>('POST', 'api/ai-analysis', {}, request)),
    close: async () => undefined,
  };
}
