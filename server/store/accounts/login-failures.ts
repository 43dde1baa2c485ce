import { admitAttempt, liveState, type Attempt, type LockoutPolicy } from '../../auth/lockout.js';
import { serializeOnKey } from '../engine/dialect.js';
import type { AnyStore } from '../engine/types.js';

/** Failed sign-ins per account and address (server/auth/lockout.ts has the rules). */

/**
 * Admits and counts one attempt of the pair atomically (lockout.ts admitAttempt), and says how
 * many failures of the account still count across all addresses.
 */
export async function beginLoginAttempt(store: AnyStore, userId: number, address: string, now: number, policy: LockoutPolicy): Promise<{ attempt: Attempt; accountFailures: number }> {
  const attempt = await admitAndCount(store, userId, address, now, policy);
  return { attempt, accountFailures: (await accountFailures(store, userId, now, policy)).failures };
}

/** The account's failures that still count, across addresses, and when the last of them stops counting. */
export async function accountFailures(store: AnyStore, userId: number, now: number, policy: LockoutPolicy): Promise<FailureCount> {
  const row = await store.db
    .selectFrom('login_failures')
    .select((eb) => [eb.fn.sum<number | null>('failures').as('n'), eb.fn.max<number | null>('last_failed_at').as('last'), eb.fn.max<number | null>('locked_until').as('until')])
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('locked_until', '>', now), eb.and([eb('locked_until', 'is', null), eb('last_failed_at', '>', now - policy.lockMs)])]))
    .executeTakeFirst();
  return failureCount(row, policy);
}

export interface FailureCount {
  failures: number;
  /** When the newest failure (or lock) stops counting. */
  clearsAt: number;
}

export function failureCount(row: { n: number | string | null; last: number | string | null; until: number | string | null } | undefined, policy: LockoutPolicy): FailureCount {
  const last = Number(row?.last ?? 0);
  return { failures: Number(row?.n ?? 0), clearsAt: Math.max(last + policy.lockMs, Number(row?.until ?? 0)) };
}

async function admitAndCount(store: AnyStore, userId: number, address: string, now: number, policy: LockoutPolicy): Promise<Attempt> {
  return store.db.transaction().execute(async (trx) => {
    // Two servers counting failures of the same pair at once must not both write the same count.
    await serializeOnKey(store.dialect, `login_failures ${userId} ${address}`)?.execute(trx);
    const before = await trx
      .selectFrom('login_failures')
      .select(['failures', 'last_failed_at', 'locked_until'])
      .where('user_id', '=', userId)
      .where('address', '=', address)
      .executeTakeFirst();
    const attempt = admitAttempt(before, now, policy);
    if (!attempt.admitted) return attempt;
    const { next } = attempt;
    await trx
      .insertInto('login_failures')
      .values({ user_id: userId, address, ...next })
      .onConflict((oc) => oc.columns(['user_id', 'address']).doUpdateSet(next))
      .execute();
    // Rows whose failures went stale and whose lock ended count for nothing: keep the table small.
    await trx
      .deleteFrom('login_failures')
      .where('last_failed_at', '<', now - policy.lockMs)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
      .execute();
    return attempt;
  });
}

/** A successful sign-in forgets the pair's failures, the one counted for it included. */
export async function clearLoginFailures(store: AnyStore, userId: number, address: string): Promise<void> {
  await store.db.deleteFrom('login_failures').where('user_id', '=', userId).where('address', '=', address).execute();
}

/** Lifts every lock of the account and forgets its failures; returns how many addresses were locked. */
export async function unlockAccount(store: AnyStore, userId: number, now: number): Promise<number> {
  const rows = await store.db.deleteFrom('login_failures').where('user_id', '=', userId).returning('locked_until').execute();
  return rows.filter((r) => r.locked_until !== null && r.locked_until > now).length;
}

export interface AccountLockout {
  /** Addresses locked out of the account now. */
  lockedAddresses: number;
  /** The latest end of those locks. */
  lockedUntil: number | null;
  /** Failures that still count (not stale, lock not ended). */
  failedAttempts: number;
}

/** Per user id, what `user list` shows. */
export async function lockoutSummary(store: AnyStore, now: number, policy: LockoutPolicy): Promise<Map<number, AccountLockout>> {
  const rows = await store.db.selectFrom('login_failures').select(['user_id', 'failures', 'last_failed_at', 'locked_until']).execute();
  const summary = new Map<number, AccountLockout>();
  for (const row of rows) {
    const live = liveState(row, now, policy);
    if (!live) continue;
    const until = live.locked_until;
    const s = summary.get(row.user_id) ?? { lockedAddresses: 0, lockedUntil: null, failedAttempts: 0 };
    s.failedAttempts += row.failures;
    if (until !== null) {
      s.lockedAddresses++;
      s.lockedUntil = Math.max(s.lockedUntil ?? 0, until);
    }
    summary.set(row.user_id, s);
  }
  return summary;
}
