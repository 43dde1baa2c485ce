/**
 * From the second attacker review: the readable log printed logged values raw on the operator's
 * terminal, and some come from anyone (the username of a sign-in under attack, error texts).
 */
import { describe, expect, it } from 'vitest';
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
