import type { UploadRequest, UploadResponse } from '../core/api/uploads.js';

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

/** The CLI's one client of the server API (the UI has its own, with the browser's rules). */
export async function uploadReport(body: UploadRequest, options: UploadClientOptions): Promise<UploadResponse> {
  // Relative, so a server behind a path prefix (https://ci.example/flakeboard) keeps it.
  const url = new URL('api/upload', options.server.endsWith('/') ? options.server : `${options.server}/`);
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const payload = JSON.stringify(body);
  let lastProblem = '';
  for (let attempt = 0; attempt <= options.retries; attempt++) {
    if (attempt > 0) await sleep(options.retryDelayMs * 2 ** (attempt - 1));
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json', accept: 'application/json' },
        body: payload,
      });
    } catch (error) {
      lastProblem = `cannot reach ${url.origin}: ${networkReason(error)}`;
      continue;
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
