import { describe, expect, it } from 'vitest';
import { addressKey, admitAttempt, DEFAULT_LOCKOUT, type FailureState } from './lockout.js';

describe('addressKey', () => {
  it('keeps IPv4, unwraps IPv4-mapped IPv6, and reduces IPv6 to its /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });
});

describe('admitAttempt', () => {
  const policy = DEFAULT_LOCKOUT;
  it('counts five attempts, then admits none until the lock ends; stale failures are forgotten', () => {
    let state: FailureState | null = null;
    const remaining = [];
    for (let i = 0; i < 5; i++) {
      const attempt = admitAttempt(state, 1000 + i, policy);
      if (!attempt.admitted) throw new Error('not admitted');
      remaining.push(attempt.remaining);
      state = attempt.next;
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    expect(admitAttempt(state, 2000, policy)).toEqual({ admitted: false, lockedUntil: 1004 + policy.lockMs });
    expect(admitAttempt(state, 1004 + policy.lockMs, policy)).toMatchObject({ admitted: true, remaining: 4 });
    const old: FailureState = { failures: 4, last_failed_at: 0, locked_until: null };
    expect(admitAttempt(old, policy.lockMs, policy)).toMatchObject({ admitted: true, remaining: 4 });
    expect(admitAttempt(old, policy.lockMs - 1, policy)).toMatchObject({ admitted: true, remaining: 0 });
  });
});
