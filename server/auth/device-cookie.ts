import { createHmac, randomBytes } from 'node:crypto';
import { safeEqual } from './tokens.js';

/**
 * A browser that has signed in to an account before carries a cookie saying so, signed with the
 * server's secret: when guesses from many addresses have capped an account's sign-ins, its owner,
 * from a browser that signed in before, is still let in (with the right password). The cookie
 * grants nothing else: the password is still checked, and the per-address lock still holds.
 */
export const DEVICE_COOKIE = 'flakeboard_device';
const YEAR_S = 365 * 24 * 60 * 60;

const signature = (secret: string, userId: number, nonce: string): string => createHmac('sha256', secret).update(`device:${userId}:${nonce}`).digest('base64url');

/** The Set-Cookie value that marks this browser as one the user signed in from. */
export function deviceCookie(secret: string, userId: number, secure: boolean): string {
  const nonce = randomBytes(16).toString('base64url');
  const attributes = ['Path=/api/auth', 'HttpOnly', 'SameSite=Strict', `Max-Age=${YEAR_S}`, ...(secure ? ['Secure'] : [])];
  return `${DEVICE_COOKIE}=${userId}.${nonce}.${signature(secret, userId, nonce)}; ${attributes.join('; ')}`;
}

/** Whether the request's Cookie header holds a device cookie this server signed for the user. */
export function isKnownDevice(secret: string, cookieHeader: string | undefined, userId: number): boolean {
  if (!cookieHeader || cookieHeader.length > 16_384) return false;
  for (const part of cookieHeader.split(';')) {
    const [name, value] = part.trim().split('=', 2);
    if (name !== DEVICE_COOKIE || !value) continue;
    const [id, nonce, mac] = value.split('.');
    if (id === String(userId) && nonce && mac && safeEqual(mac, signature(secret, userId, nonce))) return true;
  }
  return false;
}
