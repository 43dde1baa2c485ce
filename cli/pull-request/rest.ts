/**
 * The few calls `check` makes to a code host's REST API (GitHub, GitLab) to post its answer:
 * JSON in and out, a time limit per call, and redirects followed only on the API's own origin,
 * so the token never goes to another host. Errors are one sentence for a CI log.
 */
export interface RestCall {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT';
  url: URL;
  headers: Record<string, string>;
  body?: unknown;
  timeoutMs?: number;
}

export interface RestAnswer<T> {
  status: number;
  json: T;
  headers: Headers;
  /** The address that answered (after same-origin redirects): the base for a next page. */
  url: URL;
}

const MAX_REDIRECTS = 3;
const DEFAULT_TIMEOUT_MS = 15_000;

export class RestError extends Error {
  constructor(message: string, readonly status: number | null) {
    super(message);
  }
}

export async function restCall<T>(call: RestCall): Promise<RestAnswer<T>> {
  const origin = call.url.origin;
  let url = call.url;
  for (let hop = 0; ; hop++) {
    const response = await send(call, url);
    if (response.status >= 300 && response.status <= 399) {
      const location = response.headers.get('location');
      const next = location ? safeUrl(location, url) : null;
      // A renamed repository answers with a redirect on the same API; anything else is refused.
      if (!next || next.origin !== origin || hop >= MAX_REDIRECTS) {
        throw new RestError(`${url.origin} answered ${response.status} with a redirect${location ? ` to ${location.slice(0, 200)}` : ''}, which is not followed`, response.status);
      }
      url = next;
      continue;
    }
    const text = await response.text();
    if (!response.ok) throw new RestError(`${call.method} ${url.pathname} answered ${response.status}: ${errorMessage(text)}`, response.status);
    let json: T;
    try {
      json = JSON.parse(text) as T;
    } catch {
      throw new RestError(`${call.method} ${url.pathname} answered ${response.status} with something that is not JSON`, response.status);
    }
    return { status: response.status, json, headers: response.headers, url };
  }
}

async function send(call: RestCall, url: URL): Promise<Response> {
  const timeoutMs = call.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  try {
    return await fetch(url, {
      method: call.method,
      headers: { ...call.headers, ...(call.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: call.body !== undefined ? JSON.stringify(call.body) : undefined,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    throw new RestError(`cannot reach ${url.origin}: ${cause === 'TimeoutError' ? `no answer in ${timeoutMs / 1000} s` : cause}`, null);
  }
}

function safeUrl(text: string, base: URL): URL | null {
  try {
    return new URL(text, base);
  } catch {
    return null;
  }
}

/** The API's own message (`{ message }` on GitHub, `{ message }` or `{ error }` on GitLab), else the first characters. */
function errorMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown; error?: unknown };
    const message = body.message ?? body.error;
    if (typeof message === 'string') return message.slice(0, 300);
    if (message !== undefined) return JSON.stringify(message).slice(0, 300);
  } catch {
    // Not JSON (a proxy's error page).
  }
  return text.slice(0, 200) || '(no body)';
}

/** The `rel="next"` address of a Link header (GitHub's and GitLab's pagination), or null. */
export function nextLink(link: string | null): string | null {
  if (!link) return null;
  for (const part of link.split(',')) {
    const [target, ...params] = part.split(';');
    if (params.some((p) => p.trim() === 'rel="next"')) {
      const t = target!.trim();
      if (t.startsWith('<') && t.endsWith('>')) return t.slice(1, -1);
    }
  }
  return null;
}

/** Every page of a list, following Link rel="next" on the same origin, at most `maxPages`. */
export async function listPages<T>(first: URL, headers: Record<string, string>, maxPages: number, timeoutMs?: number): Promise<T[]> {
  const items: T[] = [];
  let url: URL | null = first;
  for (let page = 0; url && page < maxPages; page++) {
    const answer: RestAnswer<T[]> = await restCall<T[]>({ method: 'GET', url, headers, timeoutMs });
    if (!Array.isArray(answer.json)) throw new RestError(`GET ${url.pathname} answered with something that is not a list`, answer.status);
    items.push(...answer.json);
    const next = nextLink(answer.headers.get('link'));
    const nextUrl = next ? safeUrl(next, answer.url) : null;
    url = nextUrl && nextUrl.origin === first.origin ? nextUrl : null;
  }
  return items;
}
