import { describe, expect, it } from 'vitest';
import { formatErrorMessage, parseCodeContext, parseTestSteps, skippedWithoutFailures, statusLabel } from './error-display.js';

describe('formatErrorMessage', () => {
  it('says so when there is no message', () => {
    expect(formatErrorMessage(null)).toBe('No error details available');
    expect(formatErrorMessage(undefined)).toBe('No error details available');
    expect(formatErrorMessage('')).toBe('No error details available');
    // Only colour codes and blanks is no message either.
    expect(formatErrorMessage('\u001b[31m \u001b[39m\n')).toBe('No error details available');
  });

  it('strips colour codes and keeps a message of exactly 200 characters whole', () => {
    const text = 'x'.repeat(200);
    expect(formatErrorMessage(`\u001b[31m${text}\u001b[39m`)).toBe(text);
  });

  it('cuts a message of 201 characters to 200 plus ...', () => {
    const text = `${'a'.repeat(200)}b`;
    expect(formatErrorMessage(text)).toBe(`${'a'.repeat(200)}...`);
  });

  it('measures the length after the colour codes are gone', () => {
    const text = 'y'.repeat(199);
    expect(formatErrorMessage(`\u001b[2m${text}\u001b[22m`)).toBe(text);
  });

  it('shows a test timeout as the limit in seconds', () => {
    expect(formatErrorMessage('Test timeout of 30000ms exceeded.')).toBe('Test timeout: exceeded 30s limit');
    expect(formatErrorMessage('\u001b[31mTest timeout of 2500ms exceeded.\u001b[39m\n\nError: page.click: Target closed')).toBe('Test timeout: exceeded 2.5s limit');
  });

  it('shows a locator timeout with the locator it waited for and the action', () => {
    const message = 'TimeoutError: locator.fill: Timeout 10000ms exceeded.\nCall log:\n\u001b[2m  - waiting for getByPlaceholder(\'Search products\')\u001b[22m\n';
    expect(formatErrorMessage(message)).toBe("Element timeout: waiting for 'getByPlaceholder('Search products')' - locator.fill: Timeout 10000ms exceeded.");
  });

  it('takes the first waited-for locator and drops the expected state', () => {
    const message = [
      'Error: locator.click: Timeout 10000ms exceeded.',
      'Call log:',
      "  - waiting for locator('#submit-order') to be visible",
      '    - locator resolved to <button disabled>Place order</button>',
      '  - waiting for locator(\'#other\')',
    ].join('\n');
    expect(formatErrorMessage(message)).toBe("Element timeout: waiting for 'locator('#submit-order')' - locator.click: Timeout 10000ms exceeded.");
  });

  it('treats a navigation timeout and an assertion timeout as ordinary messages', () => {
    const navigation = 'Error: page.goto: Timeout 15000ms exceeded.\nCall log:\n  - navigating to "https://shop.example.test/", waiting until "load"\n';
    expect(formatErrorMessage(navigation)).toBe(navigation.trim());
    const assertion = "Error: expect(locator).toHaveText(expected) failed\n\nLocator: getByTestId('x')\nTimeout: 5000ms\n\nCall log:\n  - waiting for getByTestId('x')";
    expect(formatErrorMessage(assertion)).toBe(assertion);
  });

  it('keeps markup as plain text (the screen renders it as text)', () => {
    expect(formatErrorMessage('<img src=x onerror="alert(1)">')).toBe('<img src=x onerror="alert(1)">');
  });
});

describe('statusLabel', () => {
  it('labels timedOut TIMEOUT and the others in capitals', () => {
    expect(statusLabel('timedOut')).toBe('TIMEOUT');
    expect(statusLabel('failed')).toBe('FAILED');
    expect(statusLabel('passed')).toBe('PASSED');
    expect(statusLabel('skipped')).toBe('SKIPPED');
  });
});

describe('parseCodeContext', () => {
  const snippet = [
    '\u001b[0m \u001b[90m 36 |\u001b[39m   test(\'a\', async ({ page }) => {',
    '\u001b[31m\u001b[1m>\u001b[22m\u001b[39m\u001b[90m 37 |\u001b[39m     await page.goto(\'/x\');',
    ' \u001b[90m    |\u001b[39m                ^',
    ' \u001b[90m 38 |\u001b[39m   });\u001b[0m',
  ].join('\n');

  it('reads line numbers, the failing line and the caret from a Playwright snippet', () => {
    expect(parseCodeContext(snippet)).toEqual([
      { number: 36, text: "  test('a', async ({ page }) => {", failing: false, caret: false },
      { number: 37, text: "    await page.goto('/x');", failing: true, caret: false },
      { number: null, text: '               ^', failing: false, caret: true },
      { number: 38, text: '  });', failing: false, caret: false },
    ]);
  });

  it('marks the line of the error location when the snippet has no marker', () => {
    const lines = parseCodeContext('  10 | a();\n  11 | b();', '/work/tests/a.spec.ts:11:3');
    expect(lines?.map((l) => l.failing)).toEqual([false, true]);
  });

  it('is null when there is no snippet', () => {
    expect(parseCodeContext(null)).toBeNull();
    expect(parseCodeContext('  \n')).toBeNull();
  });

  it('keeps lines it cannot read as they are', () => {
    expect(parseCodeContext('plain code')).toEqual([{ number: null, text: 'plain code', failing: false, caret: false }]);
  });
});

describe('parseTestSteps', () => {
  it('reads titles, categories, durations, errors and nested steps', () => {
    const text = JSON.stringify([
      { title: 'Open', category: 'test.step', duration: 12, error: null, steps: [{ title: 'goto', category: 'pw:api', duration: 5, error: '\u001b[31mboom\u001b[39m' }] },
    ]);
    expect(parseTestSteps(text)).toEqual({
      kind: 'steps',
      steps: [
        { title: 'Open', category: 'test.step', duration: 12, error: null, steps: [{ title: 'goto', category: 'pw:api', duration: 5, error: 'boom', steps: [] }] },
      ],
    });
  });

  it('shows text that is not a step list as raw text', () => {
    expect(parseTestSteps('{not json')).toEqual({ kind: 'raw', text: '{not json' });
    expect(parseTestSteps('{"title":"x"}')).toEqual({ kind: 'raw', text: '{"title":"x"}' });
    expect(parseTestSteps('[1, 2]')).toEqual({ kind: 'raw', text: '[1, 2]' });
  });

  it('has nothing to show for no steps', () => {
    expect(parseTestSteps(null)).toEqual({ kind: 'none' });
    expect(parseTestSteps('[]')).toEqual({ kind: 'none' });
  });
});

describe('skippedWithoutFailures', () => {
  it('is true only for skips without a failed or timed-out run', () => {
    expect(skippedWithoutFailures([{ status: 'skipped' }, { status: 'passed' }])).toBe(true);
    expect(skippedWithoutFailures([{ status: 'skipped' }, { status: 'timedOut' }])).toBe(false);
    expect(skippedWithoutFailures([{ status: 'passed' }])).toBe(false);
  });
});
