import type { UploadResponse } from '../core/api/uploads.js';
import type { UploadBody } from './upload-body.js';
import { refuseRedirect } from './server-client.js';

/** Why an upload failed, in words for the person reading CI logs; `fatal` stops the others. */
export class UploadError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly fatal: boolean,
  ) {
    super(message);
    this.name = 'UploadError';
  }
}

export interface UploadClientOptions {
  server: string;
  token: string;
  retries: number;
  /** First wait between attempts; doubles each time. */
  retryDelayMs: number;
  sleep?: (ms: number) => Promise<void>;
}

const RETRY_STATUSES = new Set([429, 502, 503, 504]);

/** Relative, so a server behind a path prefix (https://ci.example/flakeboard) keeps it. */
function apiUrl(server: string, path: string): URL {
  return new URL(path, server.endsWith('/') ? server : `${server}/`);
}

/**
 * The largest body the server takes (GET /api/health), or null when it does not say (an older
 * server) or cannot be asked: the upload itself then reports what is wrong, with retries.
 */
export async function serverUploadLimit(server: string): Promise<number | null> {
  try {
    const response = await fetch(apiUrl(server, 'api/health'), { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(10_000), redirect: 'manual' });
    if (!response.ok) return null;
    const body = (await response.json()) as { maxUploadBytes?: unknown };
    return typeof body.maxUploadBytes === 'number' && body.maxUploadBytes > 0 ? body.maxUploadBytes : null;
  } catch {
    return null;
  }
}

/**
 * The CLI's one client of the server API (the UI has its own, with the browser's rules). The
 * body is streamed, with its exact length, so a report is never held whole to be sent.
 */
export async function uploadReport(body: UploadBody, options: UploadClientOptions): Promise<UploadResponse> {
  const url = apiUrl(options.server, 'api/upload');
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let lastProblem = '';
  for (let attempt = 0; attempt <= options.retries; attempt++) {
    if (attempt > 0) await sleep(options.retryDelayMs * 2 ** (attempt - 1));
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json', accept: 'application/json', 'content-length': String(body.length) },
        // Node's fetch streams an async iterable (duplex: 'half' is required for a streamed body).
        body: body.open() as unknown as BodyInit,
        duplex: 'half',
        redirect: 'manual',
      } as RequestInit);
    } catch (error) {
      lastProblem = `cannot reach ${url.origin}: ${networkReason(error)}`;
      continue;
    }
    try {
      refuseRedirect(response, url);
    } catch (error) {
      throw new UploadError((error as Error).message, null, true);
    }
    if (response.ok) return (await response.json()) as UploadResponse;
    const message = await errorText(response);
    if (RETRY_STATUSES.has(response.status)) {
      lastProblem = `the server answered ${response.status}: ${message}`;
      continue;
    }
    throw describeStatus(response.status, message, url.origin);
  }
  throw new UploadError(`${lastProblem} (gave up after ${options.retries + 1} attempts)`, null, true);
}

function describeStatus(status: number, message: string, origin: string): UploadError {
  switch (status) {
    case 400:
      return new UploadError(`the server refused the report (400): ${message}`, status, false);
    case 401:
      return new UploadError(`the server did not accept the token (401): check --token or FLAKEBOARD_TOKEN (create one with \`flakeboard token create NAME\` on the server)`, status, true);
    case 403:
      return new UploadError(`the token may not upload (403): ${message}`, status, true);
    case 404:
      return new UploadError(`${origin} has no flakeboard upload endpoint (404): check --server`, status, true);
    case 413:
      return new UploadError(`the report is larger than the server accepts (413): ${message}; raise the server's --body-limit`, status, false);
    default:
      return new UploadError(`the server answered ${status}: ${message}`, status, false);
  }
}

async function errorText(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: unknown };
    if (typeof body.error === 'string') return body.error;
  } catch {
    // not JSON: a proxy's error page, say
  }
  return text.trim().slice(0, 200) || response.statusText;
}

function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  switch (cause?.code) {
    case 'ECONNREFUSED':
      return 'connection refused (is the server running?)';
    case 'ENOTFOUND':
      return 'unknown host';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'the connection was reset';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'the connection timed out';
    default:
      return cause?.message ?? (error as Error).message;
  }
}
