import { beforeAll, expect, it } from 'vitest';
import { describeEachEngine, freshDatabase } from '../../../fixtures/testing/engines.js';
import { admitAttempt } from '../../auth/lockout.js';
import { createApiToken, findApiToken, listApiTokens, revokeApiToken, touchApiToken } from './api-tokens.js';
import { beginLoginAttempt, clearLoginFailures, lockoutSummary, unlockAccount } from './login-failures.js';
import type { AnyStore } from '../engine/types.js';
import { createSession, deleteExpiredSessions, keepNewestSessions, deleteSession, findSession, touchSession } from './sessions.js';
import { databaseSecret } from './settings.js';
import { countUsers, createUser, findUser, listUsers, removeUser, setPassword, setRole, UserExistsError } from './users.js';

const POLICY = { maxFailures: 5, lockMs: 15 * 60_000 };
const T0 = Date.UTC(2026, 10, 20, 10);

/**
 * Users, sessions, API tokens, sign-in failures and settings: the same answers on
 * both engines, and on PostgreSQL what two servers see when each has its own pool on one database.
 */
describeEachEngine('accounts in the store', (engine) => {
  // Two connections (pools) to the same database: two servers, or a server and a CLI command.
  // busy_timeout 0: on one thread, SQLite's blocking wait for the other's lock would never end.
  const db = freshDatabase(engine, { connections: 2, open: { busyTimeoutMs: 0, max: 4 } });
  let store: AnyStore;
  let other: AnyStore;
  beforeAll(() => void ([store, other] = db.stores as [AnyStore, AnyStore]));

  it('creates, finds (ignoring case), lists, changes and removes users; a taken name is UserExistsError', async () => {
    const alice = await createUser(store, { username: 'Alice', passwordHash: 'h1', role: 'admin' }, T0);
    await createUser(store, { username: 'bob', passwordHash: 'h2', role: 'member' }, T0);
    expect(alice).toEqual({ id: expect.any(Number), username: 'Alice', role: 'admin' });
    await expect(createUser(other, { username: 'alice', passwordHash: 'x', role: 'member' })).rejects.toBeInstanceOf(UserExistsError);
    expect(await findUser(other, 'ALICE')).toEqual({ id: alice.id, username: 'Alice', role: 'admin', password_hash: 'h1', created_at: T0 });
    expect((await listUsers(other)).map((u) => u.username)).toEqual(['Alice', 'bob']);
    expect(await countUsers(other)).toBe(2);
    expect(await setRole(other, 'bob', 'reviewer')).toBe(true);
    expect((await findUser(store, 'bob'))?.role).toBe('reviewer');
    expect(await setRole(store, 'nobody', 'admin')).toBe(false);
  });

  it('a session made through one connection is found through another, slides, and ends everywhere', async () => {
    const bob = (await findUser(store, 'bob'))!;
    await createSession(store, { tokenHash: 't-1', sessionHash: 's-1', userId: bob.id, expiresAt: T0 + 60_000 }, T0);
    const found = await findSession(other, 't-1', T0 + 1000, 7 * 86_400_000);
    expect(found).toEqual({ id: expect.any(Number), session_hash: 's-1', created_at: T0, last_seen_at: T0, expires_at: T0 + 60_000, user: { id: bob.id, username: 'bob', role: 'reviewer' }, sso: false });
    await touchSession(other, found!.id, T0 + 50_000, T0 + 110_000);
    expect((await findSession(store, 't-1', T0 + 100_000, 7 * 86_400_000))?.expires_at).toBe(T0 + 110_000);
    // Older than the absolute age, however active.
    expect(await findSession(store, 't-1', T0 + 100_000, 90_000)).toBeNull();
    expect(await deleteSession(other, 's-1', bob.id + 1000)).toBe(false);
    expect(await deleteSession(other, 's-1', bob.id)).toBe(true);
    expect(await findSession(store, 't-1', T0 + 1000, 7 * 86_400_000)).toBeNull();
    await createSession(store, { tokenHash: 't-2', sessionHash: 's-2', userId: bob.id, expiresAt: T0 + 10 }, T0);
    await createSession(store, { tokenHash: 't-3', sessionHash: 's-3', userId: bob.id, expiresAt: T0 + 500_000 }, T0);
    await createSession(store, { tokenHash: 't-4', sessionHash: 's-4', userId: bob.id, expiresAt: T0 + 500_000 }, T0 + 100);
    // t-2 is past its idle end; t-3 is past the absolute age of 200 s; t-4 lives.
    expect(await deleteExpiredSessions(other, T0 + 200_050, 200_000)).toBe(2);
    expect(await findSession(store, 't-2', T0, 7 * 86_400_000)).toBeNull();
    expect(await findSession(store, 't-3', T0 + 1, 7 * 86_400_000)).toBeNull();
    expect(await findSession(store, 't-4', T0 + 200_050, 7 * 86_400_000)).not.toBeNull();
  });

  it('a user keeps only their newest sessions', async () => {
    const alice = (await findUser(store, 'alice'))!;
    for (let i = 0; i < 5; i++) await createSession(store, { tokenHash: `k-${i}`, sessionHash: `ks-${i}`, userId: alice.id, expiresAt: T0 + 60_000 }, T0 + i);
    expect(await keepNewestSessions(other, alice.id, 2)).toBe(3);
    const live = await Promise.all([0, 1, 2, 3, 4].map((i) => findSession(store, `k-${i}`, T0 + 10, 86_400_000)));
    expect(live.map((s) => s !== null)).toEqual([false, false, false, true, true]);
  });

  it('API tokens: created, found with their user, touched, listed, revoked by id or unique name', async () => {
    const alice = (await findUser(store, 'alice'))!;
    const first = await createApiToken(store, { name: 'ci', tokenHash: 'k-1', userId: alice.id }, T0);
    const second = await createApiToken(store, { name: 'ci', tokenHash: 'k-2', userId: alice.id, expiresAt: T0 + 1 }, T0);
    const third = await createApiToken(store, { name: 'nightly', tokenHash: 'k-3', userId: alice.id }, T0);
    expect(await findApiToken(other, 'k-2')).toEqual({ id: second, name: 'ci', last_used_at: null, expires_at: T0 + 1, scopes: ['upload'], user: { id: alice.id, username: 'Alice', role: 'admin' } });
    await touchApiToken(other, first, T0 + 5);
    expect(await listApiTokens(store)).toEqual([
      { id: first, name: 'ci', username: 'Alice', created_at: T0, last_used_at: T0 + 5, expires_at: null, scopes: ['upload'] },
      { id: second, name: 'ci', username: 'Alice', created_at: T0, last_used_at: null, expires_at: T0 + 1, scopes: ['upload'] },
      { id: third, name: 'nightly', username: 'Alice', created_at: T0, last_used_at: null, expires_at: null, scopes: ['upload'] },
    ]);
    expect(await revokeApiToken(other, 'ci')).toBe(-2);
    expect(await revokeApiToken(other, 'nightly')).toBe(1);
    expect(await revokeApiToken(other, String(second))).toBe(1);
    expect((await listApiTokens(store)).map((t) => t.id)).toEqual([first]);
  });

  it('failed sign-ins through two connections add up to one lock of the pair, seen and lifted by either', async () => {
    const bob = (await findUser(store, 'bob'))!;
    const remaining: number[] = [];
    for (let i = 0; i < 5; i++) {
      const { attempt } = await beginLoginAttempt(i % 2 === 0 ? store : other, bob.id, '10.0.0.1', T0 + i, POLICY);
      remaining.push(attempt.admitted ? attempt.remaining : -1);
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    const refused = await beginLoginAttempt(other, bob.id, '10.0.0.1', T0 + 10, POLICY);
    expect(refused.attempt).toEqual({ admitted: false, lockedUntil: T0 + 4 + POLICY.lockMs });
    // Another address is not locked; its failure adds to the account's count.
    const elsewhere = await beginLoginAttempt(store, bob.id, '10.0.0.2', T0 + 11, POLICY);
    expect(elsewhere).toEqual({ attempt: admitAttempt(null, T0 + 11, POLICY), accountFailures: 6 });
    expect(await lockoutSummary(other, T0 + 12, POLICY)).toEqual(new Map([[bob.id, { lockedAddresses: 1, lockedUntil: T0 + 4 + POLICY.lockMs, failedAttempts: 6 }]]));
    await clearLoginFailures(other, bob.id, '10.0.0.2');
    expect(await unlockAccount(store, bob.id, T0 + 13)).toBe(1);
    expect((await beginLoginAttempt(other, bob.id, '10.0.0.1', T0 + 14, POLICY)).attempt).toMatchObject({ admitted: true, remaining: 4 });
    await clearLoginFailures(store, bob.id, '10.0.0.1');
  });

  it('failed sign-ins sent at once through two connections are each counted: the sixth is refused', async () => {
    const bob = (await findUser(store, 'bob'))!;
    const attempts = await Promise.all(Array.from({ length: 12 }, (_, i) => beginLoginAttempt(i % 2 === 0 ? store : other, bob.id, '10.0.0.9', T0 + 100, POLICY)));
    const admitted = attempts.filter((a) => a.attempt.admitted);
    // Five admitted (remaining 4, 3, 2, 1, 0 in some order), the other seven refused by the lock.
    expect(admitted.map((a) => (a.attempt.admitted ? a.attempt.remaining : -1)).sort()).toEqual([0, 1, 2, 3, 4]);
    expect(attempts.length - admitted.length).toBe(7);
    await unlockAccount(store, bob.id, T0 + 100);
  });

  it('a new password ends sessions, revokes tokens and lifts locks; removing a user takes what is theirs', async () => {
    const bob = (await findUser(store, 'bob'))!;
    await createSession(store, { tokenHash: 't-3', sessionHash: 's-3', userId: bob.id, expiresAt: T0 + 60_000 }, T0);
    await createApiToken(store, { name: 'bob-ci', tokenHash: 'k-4', userId: bob.id }, T0);
    for (let i = 0; i < 5; i++) await beginLoginAttempt(store, bob.id, '10.0.0.3', T0 + i, POLICY);
    expect(await setPassword(other, 'bob', 'h3')).toEqual({ tokensRevoked: 1 });
    expect(await findSession(store, 't-3', T0 + 1, 7 * 86_400_000)).toBeNull();
    expect(await lockoutSummary(store, T0 + 6, POLICY)).toEqual(new Map());
    expect(await setPassword(other, 'nobody', 'h')).toBeNull();
    await createSession(store, { tokenHash: 't-4', sessionHash: 's-4', userId: bob.id, expiresAt: T0 + 60_000 }, T0);
    expect(await removeUser(other, 'bob')).toBe(true);
    expect(await removeUser(other, 'bob')).toBe(false);
    expect(await findSession(store, 't-4', T0 + 1, 7 * 86_400_000)).toBeNull();
  });

  it('a database secret is made once: two connections asking at once get the same one', async () => {
    const [a, b] = await Promise.all([databaseSecret(store, 'test_secret'), databaseSecret(other, 'test_secret')]);
    expect(a).toMatch(/^[\w-]{43}$/);
    expect(b).toBe(a);
    expect(await databaseSecret(other, 'test_secret')).toBe(a);
  });
});
