import { isIPv4, isIPv6 } from 'node:net';

/**
 * Failed sign-ins are counted per account and client address, so a stranger can lock out only themselves. Five in a row
 * lock that pair for a while; the same account from another address is unaffected, so an
 * anonymous caller can lock out only itself, and even that ends by itself.
 */
export interface LockoutPolicy {
  maxFailures: number;
  lockMs: number;
}

export const DEFAULT_LOCKOUT: LockoutPolicy = { maxFailures: 5, lockMs: 15 * 60 * 1000 };

/**
 * Across all addresses, this many failures that still count make every sign-in to the account
 * wait ACCOUNT_DELAY_MS first, twice as long for every ACCOUNT_SLOWDOWN_FAILURES more, up to
 * ACCOUNT_MAX_DELAY_MS: guessing from many addresses gets slower and slower, while the real
 * user still gets in, a few seconds later.
 */
export const ACCOUNT_SLOWDOWN_FAILURES = 20;
export const ACCOUNT_DELAY_MS = 1000;
export const ACCOUNT_MAX_DELAY_MS = 8000;
/**
 * At this many failures across addresses the account is capped: attempts are refused (429)
 * until the failures go stale, except from a browser that has signed in to the account before
 * (device-cookie.ts), which is neither delayed nor capped. So an anonymous caller cannot lock
 * the owner out of a browser the owner uses.
 */
export const ACCOUNT_CAP_FAILURES = 100;

/**
 * How long an attempt waits first, by the account's failures across addresses. `maxMs` lowers
 * the bound (never raises it, never below the first step): only tests set it, through buildApp,
 * so that a hundred guesses do not wait out eight seconds each.
 */
export function accountDelayMs(accountFailures: number, maxMs: number = ACCOUNT_MAX_DELAY_MS): number {
  if (accountFailures < ACCOUNT_SLOWDOWN_FAILURES) return 0;
  const doublings = Math.floor((accountFailures - ACCOUNT_SLOWDOWN_FAILURES) / ACCOUNT_SLOWDOWN_FAILURES);
  const bound = Math.min(ACCOUNT_MAX_DELAY_MS, Math.max(ACCOUNT_DELAY_MS, maxMs));
  return Math.min(bound, ACCOUNT_DELAY_MS * 2 ** doublings);
}

export interface FailureState {
  failures: number;
  last_failed_at: number;
  locked_until: number | null;
}

/** The pair's state as it counts now: null once its lock ran out or its failures went stale. */
export function liveState(state: FailureState | null | undefined, now: number, policy: LockoutPolicy): FailureState | null {
  if (!state) return null;
  if (state.locked_until !== null) return state.locked_until > now ? state : null;
  // Failures spread over more than a lock period never add up to a lock.
  return now - state.last_failed_at < policy.lockMs ? state : null;
}

export type Attempt = { admitted: false; lockedUntil: number } | { admitted: true; next: FailureState; remaining: number };

/**
 * A sign-in attempt is counted as a failure before its password is checked, and a success
 * clears the count: so attempts sent all at once cannot slip past the lock while the first
 * ones are still hashing. A locked pair's attempts are not admitted at all. `remaining` is
 * what is left if this attempt fails (0: it locks the pair).
 */
export function admitAttempt(state: FailureState | null | undefined, now: number, policy: LockoutPolicy): Attempt {
  const live = liveState(state, now, policy);
  if (live?.locked_until != null) return { admitted: false, lockedUntil: live.locked_until };
  const failures = (live?.failures ?? 0) + 1;
  const remaining = Math.max(0, policy.maxFailures - failures);
  return { admitted: true, next: { failures, last_failed_at: now, locked_until: remaining === 0 ? now + policy.lockMs : null }, remaining };
}

/**
 * The address a failure is counted against. An IPv6 client usually holds a whole /64, so its
 * /64 is one address here; IPv4-mapped IPv6 is the IPv4 address.
 */
export function addressKey(ip: string): string {
  const plain = ip.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(plain);
  if (mapped) return mapped[1]!;
  if (isIPv4(plain) || !isIPv6(plain)) return plain;
  return `${expandIPv6(plain).slice(0, 4).join(':')}::/64`;
}

function expandIPv6(ip: string): string[] {
  const [head, tail] = ip.toLowerCase().split('::') as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(':') : []);
  const left = part(head);
  const right = part(tail);
  // An embedded IPv4 tail takes two groups; only the first four groups matter here anyway.
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return groups.map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? String(parseInt(g, 16).toString(16)) : g));
}
