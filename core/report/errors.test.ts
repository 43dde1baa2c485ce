import { describe, expect, it } from 'vitest';
import { stripAnsi } from '../ansi.js';
import { classifyError } from '../errors/classify.js';
import { errorSummary, fingerprintError } from '../errors/fingerprint.js';
import { normaliseError } from './errors.js';

/** What normaliseError gives, worked out afresh from the message each time. */
function fresh(message: string) {
  const stripped = stripAnsi(message);
  const category = classifyError(stripped);
  return { message, category, fingerprint: fingerprintError(category, stripped), summary: errorSummary(stripped) };
}

describe('normaliseError', () => {
  it('gives what its message says however often the message comes back (remembered messages, short and long)', () => {
    const messages = [
      'Error: \u001b[31mexpect(received).toBe(expected)\u001b[39m\n\nExpected: 3\nReceived: 4',
      'Test timeout of 30000ms exceeded.',
      "TimeoutError: locator.click: Timeout 5000ms exceeded.\nCall log:\n  - waiting for getByRole('button', { name: 'Pay' })",
      `Error: ${'x'.repeat(5000)} "quoted" 1234`,
      '',
    ];
    // More different messages than are remembered, then the first ones again.
    for (let i = 0; i < 2500; i++) messages.push(`Error: item ${i} missing at 0x${(i * 7919).toString(16)}ffff`);
    const order = [...messages, ...messages.slice(0, 10), ...messages.slice(-10), ...messages];
    for (const message of order) {
      const error = normaliseError({ message, location: { file: 'a.spec.ts', line: 3, column: 5 } });
      expect(error).toEqual({ ...fresh(message), location: 'a.spec.ts:3:5', snippet: null, stack: null });
    }
    // Each call makes its own object: a remembered message is not shared between errors.
    const a = normaliseError({ message: messages[0] });
    const b = normaliseError({ message: messages[0] });
    expect(a).not.toBe(b);
    expect(a).toEqual(b);
  });
});
