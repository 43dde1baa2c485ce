/**
 * From the second attacker review: the readable log printed logged values raw on the operator's
 * terminal, and some come from anyone (the username of a sign-in under attack, error texts).
 */
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../fixtures/testing/app.js';
import { formatLine } from './logging.js';

const line = (entry: Record<string, unknown>) => JSON.stringify({ level: 40, time: Date.UTC(2026, 10, 23, 12), pid: 1, hostname: 'h', ...entry });

describe('the readable log', () => {
  it('shows control characters from logged values escaped: no terminal sequence, no forged line', () => {
    const hostile = 'adm\u001b]52;c;ZXZpbA==\u0007in\n12:00:00 INFO  all good\u009b2J';
    const out = formatLine(line({ msg: 'sign-in failures', user: hostile, err: { message: hostile, stack: `Error: ${hostile}\n    at f (a.ts:1:1)` } }), false);
    expect(out).not.toMatch(/[\u001b\u0007\u009b]/);
    // The stack keeps its own line breaks; the value's newline is shown, not obeyed.
    expect(out.split('\n')).toHaveLength(3);
    expect(out).toContain('user=adm\\u001b]52;c;ZXZpbA==\\u0007in\\u000a12:00:00 INFO  all good\\u009b2J');
  });

  it('prints ordinary values as they are', () => {
    expect(formatLine(line({ msg: 'account unlocked', user: 'rita', unlockedAddresses: 2 }), false)).toBe('12:00:00 WARN  account unlocked user=rita unlockedAddresses=2');
  });
});

describe('the request log', () => {
  it('keeps no secret a URL carries: a trace link\'s signature, the provider\'s code and state', async () => {
    const lines: string[] = [];
    const stream = new Writable({ write(chunk: Buffer, _encoding, done) { lines.push(chunk.toString('utf8')); done(); } });
    const t = await buildTestApp({ logger: { level: 'info', stream } });
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      await fetch(`${base}/api/evidence/${'a'.repeat(64)}/trace.zip?expires=4102444800000&signature=SIGNATURE-SECRET`);
      await fetch(`${base}/api/auth/oidc/callback?code=CODE-SECRET&state=STATE-SECRET&iss=x`);
      const logged = lines.join('');
      expect(logged).toContain(`/api/evidence/${'a'.repeat(64)}/trace.zip?expires=4102444800000&signature=[redacted]`);
      expect(logged).toContain('/api/auth/oidc/callback?code=[redacted]&state=[redacted]&iss=x');
      expect(logged).not.toMatch(/SIGNATURE-SECRET|CODE-SECRET|STATE-SECRET/);
    } finally {
      await t.close();
    }
  });
});
