import { describe, expect, it } from 'vitest';
import { parseTrustProxy } from './options.js';

describe('--trust-proxy', () => {
  it('takes hops on loopback and proxy addresses or ranges anywhere', () => {
    expect(parseTrustProxy('1', '127.0.0.1')).toBe(1);
    expect(parseTrustProxy('10.0.0.5, 10.1.0.0/16', '0.0.0.0')).toBe('10.0.0.5,10.1.0.0/16');
    expect(parseTrustProxy('loopback,2001:db8::/48', '0.0.0.0')).toBe('loopback,2001:db8::/48');
  });

  it('refuses ranges so wide that together they trust nearly every client', () => {
    expect(() => parseTrustProxy('0.0.0.0/1,128.0.0.0/1', '0.0.0.0')).toThrow(/"0.0.0.0\/1" is neither/);
    expect(() => parseTrustProxy('::/0', '0.0.0.0')).toThrow(/"::\/0" is neither/);
    expect(() => parseTrustProxy('10.0.0.0/7', '0.0.0.0')).toThrow(/is neither/);
  });
});
