import { XSRF_COOKIE, XSRF_HEADER } from '../../../core/api/auth.js';
import { AUTH_TOKEN_KEY, clearSession } from '../session/storage.js';

/** A non-2xx answer (or no answer at all: status 0). `message` is the server's error field when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The parsed answer body, when it was JSON. */
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The server's `error` field, if the answer carried one. */
  get serverError(): string | undefined {
    const error = (this.body as { error?: unknown } | null)?.error;
    return typeof error === 'string' && error !== '' ? error : undefined;
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * A call made without the stored session (sign-in): no bearer header, and its 401 means
   * "wrong credentials", not "this session ended", so it must not sign out another tab.
   */
  anonymous?: boolean;
}

/**
 * The one client (docs/api.md#the-uis-client-rules): JSON both ways, a bearer header when a token exists and
 * none was set, the XSRF-TOKEN cookie echoed on same-origin calls, any 401 clears the session
 * and goes to #/login. No timeout: a large upload may take as long as it takes.
 */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers = new Headers(options.headers);
  headers.set('accept', 'application/json');
  const token = options.anonymous ? null : localStorage.getItem(AUTH_TOKEN_KEY);
  if (token && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
  if (isSameOrigin(path)) {
    const xsrf = readCookie(XSRF_COOKIE);
    if (xsrf) headers.set(XSRF_HEADER, xsrf);
  }
  let body: string | undefined;
  if (options.body !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(options.body);
  }

  let response: Response;
  try {
    response = await fetch(path, { method: options.method ?? 'GET', headers, body, signal: options.signal, credentials: 'same-origin' });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, `The server could not be reached: ${(error as Error).message}`, null);
  }
  const text = await response.text();
  let parsed: unknown = null;
  if (text !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  // A 401 ends the session that made the call; one answered after a new sign-in (a start-up
  // check with the old token) must not end the new session.
  if (response.status === 401 && token !== null && localStorage.getItem(AUTH_TOKEN_KEY) === token) {
    clearSession();
    if (window.location.hash.split('?')[0] !== '#/login') window.location.hash = '#/login';
  }
  if (response.status < 200 || response.status > 299) {
    const error = (parsed as { error?: unknown } | null)?.error;
    throw new ApiError(response.status, typeof error === 'string' && error !== '' ? error : `Request failed with status code ${response.status}`, parsed);
  }
  return parsed as T;
}

function isSameOrigin(path: string): boolean {
  try {
    return new URL(path, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
}

function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      // A malformed cookie must not break every call: send it as it is, the server judges it.
      return value;
    }
  }
  return null;
}

/** The message to show for a failed call: the server's error field, else the error's own text. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.serverError ?? error.message;
  return error instanceof Error ? error.message : String(error);
}
