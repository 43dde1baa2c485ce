import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { WebhookEvent } from '../../core/api/webhooks.js';
import type { WebhookKind } from '../../core/api/webhook-names.js';
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
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? addressProblem(host) : null;
}

/**
 * Why an address is no place for a hook, or null. Link-local addresses hold a cloud's metadata
 * service, which hands credentials to whatever on the host asks; an unspecified address (0.0.0.0,
 * ::) connects to this host. Loopback and private addresses stay allowed: a receiver on the same
 * host or network is an admin's choice (a self-hosted chat server).
 */
export function addressProblem(address: string): string | null {
  let ip = address.toLowerCase();
  // An IPv4 address inside IPv6 (::ffff:a9fe:a9fe as the URL parser writes it, the older
  // IPv4-compatible ::a9fe:a9fe, NAT64's 64:ff9b::a9fe:a9fe, which such a network routes to the
  // IPv4 address) is that IPv4 address.
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  const hex = /^(?:::ffff:|::|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(ip);
  if (dotted) ip = dotted[1]!;
  else if (hex) {
    const [high, low] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
    ip = [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  if (isIP(ip) === 4) {
    const [a, b] = ip.split('.').map(Number) as [number, number];
    if (a === 0) return `A webhook cannot be sent to the unspecified address ${address}: it reaches this server's own host`;
    if (a === 169 && b === 254) return `A webhook cannot be sent to the link-local address ${address}: it is where a cloud's metadata service answers`;
    return null;
  }
  if (isIP(ip) !== 6) return null;
  if (ip === '::') return `A webhook cannot be sent to the unspecified address ${address}: it reaches this server's own host`;
  if (/^fe[89ab]/.test(ip)) return `A webhook cannot be sent to the link-local address ${address}`;
  if (ip === 'fd00:ec2::254') return `A webhook cannot be sent to ${address}: it is a cloud's metadata service`;
  return null;
}

/** The hook's host name resolved now: refused if any of its addresses is. */
async function destinationProblem(url: string): Promise<string | null> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return addressProblem(host);
  const addresses = await lookup(host, { all: true, verbatim: true }).catch(() => []);
  for (const { address } of addresses) {
    const problem = addressProblem(address);
    if (problem) return `${host} resolves to ${address}: ${problem}`;
  }
  return null;
}

/** Posts one event; never throws. Redirects are not followed: a hook's URL is where it is sent. */
export async function sendEvent(hook: { kind: WebhookKind; url: string; secret: string | null }, event: WebhookEvent, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<SendResult> {
  const problem = checkWebhookUrl(hook.url) ?? (await destinationProblem(hook.url));
  if (problem) return { ok: false, status: null, error: problem, permanent: true };
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
