import type { AiAnalysisResult } from '../core/api/ai.js';
import type { FlakyTestsPage, Paged, TestResultDetail } from '../core/api/analytics.js';
import type { QuarantineListResponse } from '../core/api/quarantine.js';
import type { RecentUpload, TestResultRow, UploadDetailResponse } from '../core/api/uploads.js';
import { ToolInputError, type HistorySource } from './source.js';

export const HTTP_TIMEOUT_MS = 30_000;
/** The largest answer read: a page of results with long errors is megabytes, not hundreds. */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/**
 * A path segment. URLs resolve '.' and '..' segments away, escaped or not (%2E%2E too), so a
 * test titled '..' would ask the route above it: said instead.
 */
function segment(text: string): string {
  if (text === '.' || text === '..') throw new ToolInputError(`a title or project ${JSON.stringify(text)} cannot be named in the server's URLs: read the database file with --db instead`);
  return encodeURIComponent(text);
}

/**
 * The history of a flakeboard server, through the read routes of its API with an API token
 * (`flakeboard token create`). The diagnosis is a POST that reads; nothing here writes.
 */
export function openHttpSource(server: string, token: string, options: { timeoutMs?: number; maxAnswerBytes?: number; fetch?: typeof fetch } = {}): HistorySource {
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
  const maxBytes = options.maxAnswerBytes ?? MAX_ANSWER_BYTES;

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
        // A flakeboard server never redirects its API: an answer from elsewhere is not its data.
        redirect: 'error',
      });
    } catch (error) {
      const { name, message } = error as Error;
      // fetch says "fetch failed"; what happened (ECONNREFUSED, ENOTFOUND, a bad port) is in its cause.
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const reason = name === 'TimeoutError' ? `no answer in ${timeoutMs / 1000} s` : (cause?.code ?? cause?.message ?? message);
      throw new Error(`cannot reach ${url.origin} (${shown}): ${reason}`, { cause: error });
    }
    const text = await boundedText(response, shown, maxBytes);
    if (response.status === 404 && method === 'GET' && path.startsWith('api/uploads/')) return null;
    if (!response.ok) {
      let message = text;
      try {
        message = (JSON.parse(text) as { error?: string }).error ?? message;
      } catch {
        // Not JSON (a proxy's error page): its first characters say enough.
      }
      // What a server says reaches the agent as a tool error: a few hundred characters at most.
      message = String(message).slice(0, 300);
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
    testResults: async (q) =>
      must(call<Paged<TestResultDetail>>('GET', `api/test-details/${segment(q.title)}/${segment(q.browser)}`, { file: q.file, page: q.page, pageSize: q.pageSize })),
    recentRuns: (q) => must(call<Paged<RecentUpload>>('GET', 'api/recent-uploads', { page: q.page, pageSize: q.pageSize })),
    async run(id, limit) {
      const detail = await call<UploadDetailResponse>('GET', `api/uploads/${id}`);
      if (!detail) return null;
      const failed = await must(call<Paged<TestResultRow>>('GET', `api/uploads/${id}/results`, { status: 'failed', sort: 'status', page: 1, pageSize: limit }));
      return { upload: detail.upload, failed, retried: { flakyTests: detail.flakyTests, flakyTestsTotal: detail.flakyTestsTotal } };
    },
    async evidence(sha256, maxBytes) {
      const url = new URL(`api/evidence/${encodeURIComponent(sha256)}`, base);
      const shown = `GET ${url.origin}${url.pathname}`;
      let response: Response;
      try {
        response = await fetchImpl(url, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
      } catch (error) {
        throw new Error(`cannot reach ${url.origin} (${shown}): ${(error as Error).message}`, { cause: error });
      }
      if (response.status === 404) {
        await response.body?.cancel();
        return null;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`${shown} answered ${response.status}${response.status === 401 ? ' (check --token or FLAKEBOARD_TOKEN)' : ''}`);
      }
      return boundedBytes(response, shown, maxBytes);
    },
    analyse: (request) => must(call<AiAnalysisResult>('POST', 'api/ai-analysis', {}, request)),
    close: async () => undefined,
  };
}

/** The answer's text, refused past `max` bytes before more is read (a wrong --server could send gigabytes). */
async function boundedText(response: Response, shown: string, max: number): Promise<string> {
  return (await boundedBytes(response, shown, max)).toString('utf8');
}

async function boundedBytes(response: Response, shown: string, max: number): Promise<Buffer> {
  const tooLarge = () => new Error(`${shown} answered more than ${max.toLocaleString('en-US')} bytes: is this a flakeboard server?`);
  if (Number(response.headers.get('content-length')) > max) {
    await response.body?.cancel();
    throw tooLarge();
  }
  if (!response.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > max) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
