import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** 256-bit random tokens. API tokens carry a prefix so a leaked one is recognisable. */
export function newToken(prefix = ''): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

export const API_TOKEN_PREFIX = 'fbt_';

/** Tokens are stored hashed: a copy of the database grants no access. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The XSRF token of a session: an HMAC of it, so it cannot be forged or reused across sessions. */
export function xsrfTokenFor(secret: string, sessionHash: string): string {
  return createHmac('sha256', secret).update(`xsrf:${sessionHash}`).digest('base64url');
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function randomPassword(): string {
  return randomBytes(18).toString('base64url');
}
