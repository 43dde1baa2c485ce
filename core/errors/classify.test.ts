import { describe, expect, it } from 'vitest';
import { stripAnsi } from '../ansi.js';
import { classifyError } from './classify.js';
import { errorSummary, fingerprintError, normaliseErrorText } from './fingerprint.js';

// Messages as Playwright writes them (colour codes included), one or more per category.
const SAMPLES: Array<[string, string]> = [
  ['Test Timeout', '\u001b[31mTest timeout of 30000ms exceeded.\u001b[39m'],
  ['Test Timeout', 'Test timeout of 60000ms exceeded while running "beforeEach" hook.'],
  ['Element Wait Timeout', "Error: locator.click: Timeout 10000ms exceeded.\nCall log:\n\u001b[2m  - waiting for locator('#submit')\u001b[22m\n"],
  ['Element Wait Timeout', "TimeoutError: page.waitForSelector: Timeout 5000ms exceeded.\nCall log:\n  - waiting for locator('.cart') to be visible"],
  ['Page Load Timeout', 'Error: page.goto: Timeout 30000ms exceeded.\nCall log:\n\u001b[2m  - navigating to "https://shop.example.test/", waiting until "load"\u001b[22m\n'],
  ['Page Load Timeout', 'page.waitForURL: Timeout 15000ms exceeded.\n=========================== logs ==========================='],
  ['Assertion Error', 'Error: \u001b[2mexpect(\u001b[22m\u001b[31mlocator\u001b[39m\u001b[2m).\u001b[22mtoHaveText\u001b[2m(\u001b[22m\u001b[32mexpected\u001b[39m\u001b[2m)\u001b[22m failed\n\nLocator: getByRole(\'heading\')\nExpected string: "Welcome"\nReceived string: "Hello"\nTimeout: 5000ms'],
  ['Assertion Error', 'Error: Timed out 5000ms waiting for expect(locator).toBeVisible()\n\nLocator: locator(\'#x\')'],
  ['Assertion Error', 'AssertionError: expected 3 to equal 4'],
  ['Browser Protocol Error', 'Error: Protocol error (Page.navigate): Target closed.'],
  ['Browser Protocol Error', 'Error: page.click: Target page, context or browser has been closed'],
  ['Navigation Error', 'Error: page.goto: net::ERR_CONNECTION_REFUSED at http://localhost:3000/login\nCall log:\n  - navigating to "http://localhost:3000/login", waiting until "load"'],
  ['Navigation Error', 'Error: page.goto: NS_ERROR_CONNECTION_REFUSED'],
  ['other', "TypeError: Cannot read properties of undefined (reading 'id')\n    at /src/a.spec.ts:3:4"],
];

describe('classifyError', () => {
  it.each(SAMPLES)('%s: %s', (category, message) => {
    expect(classifyError(stripAnsi(message))).toBe(category);
  });
});

describe('fingerprintError', () => {
  it('is the same for messages that differ only in numbers, ids and quoted values', () => {
    const a = "Error: locator.click: Timeout 10000ms exceeded.\nCall log:\n  - waiting for locator('#order-1234')";
    const b = "Error: locator.click: Timeout 5000ms exceeded.\nCall log:\n  - waiting for locator('#order-98')";
    expect(fingerprintError('Element Wait Timeout', a)).toBe(fingerprintError('Element Wait Timeout', b));
    expect(normaliseErrorText(a)).toBe('Error: locator.click: Timeout <n>ms exceeded. - waiting for locator(<str>)');
  });

  it('differs for different actions and categories', () => {
    const click = 'Error: locator.click: Timeout 1ms exceeded.';
    const fill = 'Error: locator.fill: Timeout 1ms exceeded.';
    expect(fingerprintError('Element Wait Timeout', click)).not.toBe(fingerprintError('Element Wait Timeout', fill));
    expect(fingerprintError('other', click)).not.toBe(fingerprintError('Element Wait Timeout', click));
  });

  it('summarises with the first line, without "Error: "', () => {
    expect(errorSummary('\n\nError: page.goto: boom\nmore')).toBe('page.goto: boom');
    expect(errorSummary('x'.repeat(400))).toHaveLength(300);
  });
});
