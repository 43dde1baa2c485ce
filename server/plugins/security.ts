import type { FastifyInstance } from 'fastify';

// Mantine writes style attributes; everything else comes from our own origin.
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  // Evidence videos play from blob: URLs the page makes of what it fetched with its session.
  "media-src 'self' blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/**
 * Fastify's trustProxy for "this many proxies in front": the one that connects must be on this
 * machine (a hop count alone would believe any client that connects directly), and the next
 * `hops - 1` addresses of X-Forwarded-For are believed too.
 */
export function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (address, hop) => hop < hops && (hop > 0 || isLoopback(address.replace(/^::ffff:/i, '')));
}

export function isLoopback(host: string): boolean {
  // 127.x.attacker.example must not pass: only dotted-quad loopback addresses do.
  return LOOPBACK.has(host) || /^127(\.\d{1,3}){3}$/.test(host);
}

// A year, the floor of browsers' preload lists; subdomains are left to their own servers.
export const HSTS = 'max-age=31536000';

export interface SecurityOptions {
  host: string;
  /** Send Strict-Transport-Security on answers to requests that came over HTTPS. */
  hsts?: boolean;
}

/**
 * Security headers on every answer, and, when bound to loopback, a Host check: a page on
 * another site that rebinds its DNS name to 127.0.0.1 must not reach the API.
 */
export function registerSecurity(app: FastifyInstance, options: SecurityOptions): void {
  const checkHost = isLoopback(options.host);
  app.addHook('onRequest', async (request, reply) => {
    if (!checkHost) return;
    const hostname = hostOf(request.headers.host ?? '');
    if (!isLoopback(hostname)) {
      return reply.code(421).send({ error: `Host ${JSON.stringify(request.headers.host ?? '')} is not allowed: this server answers on localhost only` });
    }
  });
  app.addHook('onSend', async (request, reply, payload) => {
    // An answer that set its own policy keeps it: evidence blobs are sent sandboxed (routes/evidence.ts).
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', CSP);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('cross-origin-resource-policy', 'same-origin');
    // API answers carry test data and signed-in state: no browser or proxy may keep a copy.
    // The UI's assets keep their own caching (static-ui.ts).
    // Content-addressed evidence sets its own (private, immutable): its bytes never change.
    if (/^\/api(?:[/?]|$)/.test(request.url) && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    // Browsers ignore it over plain HTTP (RFC 6797), and it must not be sent there; behind a
    // TLS proxy, request.protocol needs --trust-proxy to see X-Forwarded-Proto.
    if (options.hsts && request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    return payload;
  });
}

function hostOf(header: string): string {
  if (header.startsWith('[')) return header.slice(0, header.indexOf(']') + 1);
  return header.split(':')[0]!.toLowerCase();
}
