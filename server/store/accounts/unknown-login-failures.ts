import { createHash } from 'node:crypto';
import { admitAttempt, type Attempt, type LockoutPolicy } from '../../auth/lockout.js';
import { serializeOnKey } from '../engine/dialect.js';
import type { AnyStore } from '../engine/types.js';
import { failureCount, type FailureCount } from './login-failures.js';

/**
 * Failed sign-ins to names that no account has, per name and address, by the rules and with the
 * answers of login-failures.ts: an unknown name locks after as many failures, and slows down
 * after as many across addresses, as a real account, on whichever servers they were sent to,
 * so the answers never tell whether an account exists. Names are kept as their SHA-256 only.
 */
export async function beginUnknownLoginAttempt(store: AnyStore, username: string, address: string, now: number, policy: LockoutPolicy): Promise<{ attempt: Attempt; accountFailures: number }> {
  const nameHash = hashName(username);
  const attempt = await store.db.transaction().execute(async (trx) => {
    await serializeOnKey(store.dialect, `unknown_login_failures ${nameHash} ${address}`)?.execute(trx);
    const before = await trx
      .selectFrom('unknown_login_failures')
      .select(['failures', 'last_failed_at', 'locked_until'])
      .where('name_hash', '=', nameHash)
      .where('address', '=', address)
      .executeTakeFirst();
    const admitted = admitAttempt(before, now, policy);
    if (!admitted.admitted) return admitted;
    const { next } = admitted;
    await trx
      .insertInto('unknown_login_failures')
      .values({ name_hash: nameHash, address, ...next })
      .onConflict((oc) => oc.columns(['name_hash', 'address']).doUpdateSet(next))
      .execute();
    // As for accounts: rows that count for nothing any more go, so the table stays small.
    await trx
      .deleteFrom('unknown_login_failures')
      .where('last_failed_at', '<', now - policy.lockMs)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
      .execute();
    return admitted;
  });
  return { attempt, accountFailures: (await unknownNameFailures(store, username, now, policy)).failures };
}

// Names match as accounts do: without regard to case.
const hashName = (username: string): string => createHash('sha256').update(username.toLowerCase()).digest('hex');

/** As accountFailures, for a name no account has. */
export async function unknownNameFailures(store: AnyStore, username: string, now: number, policy: LockoutPolicy): Promise<FailureCount> {
  const row = await store.db
    .selectFrom('unknown_login_failures')
    .select((eb) => [eb.fn.sum<number | null>('failures').as('n'), eb.fn.max<number | null>('last_failed_at').as('last'), eb.fn.max<number | null>('locked_until').as('until')])
    .where('name_hash', '=', hashName(username))
    .where((eb) => eb.or([eb('locked_until', '>', now), eb.and([eb('locked_until', 'is', null), eb('last_failed_at', '>', now - policy.lockMs)])]))
    .executeTakeFirst();
  return failureCount(row, policy);
}
