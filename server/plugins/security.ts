import type { FastifyInstance } from 'fastify';

// Mantine writes style attributes; everything else comes from our own origin.
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export function isLoopback(host: string): boolean {
  // 127.x.attacker.example must not pass: only dotted-quad loopback addresses do.
  return LOOPBACK.has(host) || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Security headers on every answer, and, when bound to loopback, a Host check: a page on
 * another site that rebinds its DNS name to 127.0.0.1 must not reach the API.
 */
export function registerSecurity(app: FastifyInstance, options: { host: string }): void {
  const checkHost = isLoopback(options.host);
  app.addHook('onRequest', async (request, reply) => {
    if (!checkHost) return;
    const hostname = hostOf(request.headers.host ?? '');
    if (!isLoopback(hostname)) {
      return reply.code(421).send({ error: `Host ${JSON.stringify(request.headers.host ?? '')} is not allowed: this server answers on localhost only` });
    }
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('content-security-policy', CSP);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('cross-origin-resource-policy', 'same-origin');
    return payload;
  });
}

function hostOf(header: string): string {
  if (header.startsWith('[')) return header.slice(0, header.indexOf(']') + 1);
  return header.split(':')[0]!.toLowerCase();
}
