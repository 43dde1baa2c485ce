import type { WebhookEvent, WebhookKind } from '../../core/api/webhooks.js';
import { requestFor } from './formats.js';

export const SEND_TIMEOUT_MS = 10_000;

export interface SendResult {
  ok: boolean;
  status: number | null;
  error: string | null;
  /** The receiver refused for good (a 4xx other than 408 and 429): retrying will not help. */
  permanent: boolean;
}

/** Only http and https: anything else (file:, data:, javascript:) is refused with the reason. */
export function checkWebhookUrl(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `"${url.slice(0, 100)}" is not a URL: give the hook's whole address, starting with https://`;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return `A webhook URL must start with http:// or https://, not ${parsed.protocol}`;
  if (parsed.username || parsed.password) return 'A webhook URL must not carry a user name or password: use a generic hook and its signing secret';
  return null;
}

/** Posts one event; never throws. Redirects are not followed: a hook's URL is where it is sent. */
export async function sendEvent(hook: { kind: WebhookKind; url: string; secret: string | null }, event: WebhookEvent, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<SendResult> {
  const request = requestFor(hook, event);
  const timeout = AbortSignal.timeout(options.timeoutMs ?? SEND_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  try {
    const response = await fetch(hook.url, { method: 'POST', headers: request.headers, body: request.body, redirect: 'manual', signal });
    // The answer's body is not needed: drop it rather than hold the connection.
    await response.body?.cancel().catch(() => {});
    const ok = response.status >= 200 && response.status < 300;
    const permanent = !ok && response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429;
    return { ok, status: response.status, error: ok ? null : `the receiver answered ${response.status}`, permanent };
  } catch (error) {
    const timedOut = timeout.aborted;
    const reason = timedOut ? `no answer within ${Math.round((options.timeoutMs ?? SEND_TIMEOUT_MS) / 1000)} s` : causeOf(error);
    return { ok: false, status: null, error: reason, permanent: false };
  }
}

/** fetch says only "fetch failed": the reason (a refused connection, an unknown host) is in its cause. */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string; errors?: Array<{ code?: string; message?: string }> } }).cause;
  const inner = cause?.code ? cause : cause?.errors?.find((e) => e.code);
  if (inner?.code) return `could not connect: ${inner.message || inner.code}`;
  if (cause?.message) return cause.message;
  return error instanceof Error ? error.message : String(error);
}
