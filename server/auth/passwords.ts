import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** OWASP ASVS 5 strength for scrypt (docs/operations.md#users-roles-and-tokens); stored with each hash so it can rise. */
export const DEFAULT_SCRYPT = { N: 2 ** 17, r: 8, p: 1 } as const;
export type ScryptParams = { N: number; r: number; p: number };

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
const KEY_LENGTH = 32;

function scrypt(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  // 128 × N × r bytes of memory: past Node's 32 MiB default at N = 2^17, so raise maxmem.
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r };
  return new Promise((resolve, reject) => {
    // The async form runs on libuv's pool: a sign-in never blocks the event loop.
    scryptCallback(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** Why a password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN) return `the password must be at least ${PASSWORD_MIN} characters`;
  if (password.length > PASSWORD_MAX) return `the password must be at most ${PASSWORD_MAX} characters`;
  return null;
}

export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, params);
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/**
 * A stored hash that no password matches (its key is random bytes, not scrypt's output), costing
 * one scrypt at `params` to check like a real one: made without running scrypt, so a server's
 * start does not pay a hash (128 MiB and a good fraction of a second at the default cost).
 */
export function unmatchableHash(params: ScryptParams = DEFAULT_SCRYPT): string {
  return `scrypt$${params.N}$${params.r}$${params.p}$${randomBytes(16).toString('base64')}$${randomBytes(KEY_LENGTH).toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Whether a stored hash was made with other settings than `params` (it is re-hashed at the next sign-in). */
export function hashNeedsUpdate(stored: string, params: ScryptParams): boolean {
  const [scheme, n, r, p] = stored.split('$');
  return scheme !== 'scrypt' || Number(n) !== params.N || Number(r) !== params.r || Number(p) !== params.p;
}

const SCRYPT_N_MIN = 1024;
const SCRYPT_N_MAX = 2 ** 20;

/**
 * The scrypt parameters for new hashes: DEFAULT_SCRYPT, unless FLAKEBOARD_SCRYPT_N names a
 * power of two from 1024 to 2^20. The variable exists for tests and constrained machines (a
 * hash at N = 2^17 takes 128 MiB and a noticeable fraction of a second); anything else in it is
 * ignored. The parameters are stored with each hash, so verification never depends on it.
 */
export function scryptParamsFromEnv(env: NodeJS.ProcessEnv = process.env): ScryptParams {
  const raw = env.FLAKEBOARD_SCRYPT_N?.trim();
  if (!raw || !/^\d+$/.test(raw)) return { ...DEFAULT_SCRYPT };
  const n = Number(raw);
  const powerOfTwo = Number.isSafeInteger(n) && (n & (n - 1)) === 0;
  if (!powerOfTwo || n < SCRYPT_N_MIN || n > SCRYPT_N_MAX) return { ...DEFAULT_SCRYPT };
  return { ...DEFAULT_SCRYPT, N: n };
}
