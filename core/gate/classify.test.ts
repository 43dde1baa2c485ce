import { describe, expect, it } from 'vitest';
import { classifyTest, coversTest, wildcardMatch } from './classify.js';
import { parseExpiry } from './expiry.js';
import type { BaseResult, GateTest, QuarantineEntry } from './types.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 23, 12);
const test: GateTest = { title: 'applies a coupon', titlePath: ['checkout', 'applies a coupon'], file: 'checkout.spec.ts', project: 'chromium', browser: 'chromium', passedOnRetry: false };

/** Base results newest first: 'P' passed, 'F' failed, 'R' passed on a retry, 'S' skipped, '!' failed in an outage run. */
function history(pattern: string, commits?: string[]): BaseResult[] {
  return [...pattern].map((c, i) => ({
    runId: 100 - i,
    startedAt: NOW - (i + 1) * DAY,
    commit: commits?.[i] ?? `c${i}`,
    status: c === 'P' || c === 'R' ? 'passed' : c === 'S' ? 'skipped' : 'failed',
    passedOnRetry: c === 'R',
    outageRun: c === '!',
  }));
}
const entry = (over: Partial<QuarantineEntry> = {}): QuarantineEntry => ({ id: 1, title: 'applies a coupon', file: null, project: null, reason: 'coupon service flaky', owner: 'rita', createdBy: 'max', createdAt: NOW - DAY, expiresAt: NOW + DAY, ...over });

describe('classifyTest', () => {
  it('new: passed on every base run in the window, or never ran there', () => {
    expect(classifyTest(test, history('PPPP'), [], NOW)).toMatchObject({ class: 'new', reason: 'a new failure: passed in all 4 base-branch runs in the window' });
    expect(classifyTest(test, [], [], NOW)).toMatchObject({ class: 'new', reason: expect.stringMatching(/never ran on the base branch/) });
  });

  it('broken-on-base: the latest base runs fail too, with the run and commit it started failing at', () => {
    const got = classifyTest(test, history('FFFPP', ['c0', 'c1', 'c2', 'c3', 'c4']), [], NOW);
    expect(got.class).toBe('broken-on-base');
    expect(got.reason).toBe('fails on the base branch too: its latest 3 runs fail, failing since run 98 (2026-11-20, c2); it last passed in run 97 (2026-11-19)');
    expect(got.evidence.map((e) => e.runId)).toEqual([100, 99, 98]);
  });

  it('broken-on-base: every base run failed says so, not "its latest 2"', () => {
    const all = classifyTest(test, history('FFFFF'), [], NOW);
    expect(all.reason).toBe('fails on the base branch too: all 5 of its runs in the window failed, the oldest run 96 (2026-11-18, c4): it has not passed there in the window');
    expect(classifyTest(test, history('F'), [], NOW).reason).toBe('fails on the base branch too: its only run in the window, run 100 (2026-11-22, c0), failed');
    // Skips and outage runs are not runs that failed or passed.
    expect(classifyTest(test, history('FSF!P'), [], NOW).reason).toMatch(/its latest 2 runs fail, failing since run 98 .*last passed in run 96/);
  });

  it('flaky: passes on retry, a fail and a pass on one commit, or a failure in the window that passed since', () => {
    expect(classifyTest(test, history('PRPP'), [], NOW)).toMatchObject({ class: 'flaky', reason: expect.stringMatching(/passed only on a retry in 1 of 4 runs/) });
    expect(classifyTest(test, history('PFP', ['a', 'b', 'b']), [], NOW)).toMatchObject({ class: 'flaky', reason: expect.stringMatching(/both failed and passed on commit b/) });
    expect(classifyTest(test, history('PPFPP'), [], NOW)).toMatchObject({ class: 'flaky', reason: expect.stringMatching(/failed on the base branch 1 of 5 runs/) });
  });

  it('counts the failure rate on base the dashboard shows: first attempts that failed (retried ones too), of the runs that count', () => {
    expect(classifyTest(test, history('PRF!SP'), [], NOW).onBase).toEqual({ runs: 4, failed: 2, passedOnRetry: 1 });
    expect(classifyTest(test, [], [entry()], NOW).onBase).toEqual({ runs: 0, failed: 0, passedOnRetry: 0 });
  });

  it('ignores outage runs and skips as evidence', () => {
    // Two outage failures on top would otherwise read as broken on base.
    expect(classifyTest(test, history('!!PPP'), [], NOW).class).toBe('new');
    expect(classifyTest(test, history('SSPP'), [], NOW).class).toBe('new');
  });

  it('quarantined wins over any history while the entry applies; an expired entry no longer does', () => {
    const got = classifyTest(test, history('FFF'), [entry()], NOW);
    expect(got).toMatchObject({ class: 'quarantined', quarantine: { id: 1, owner: 'rita' } });
    expect(got.reason).toContain('coupon service flaky');
    expect(classifyTest(test, history('FFF'), [entry({ expiresAt: NOW - 1 })], NOW).class).toBe('broken-on-base');
  });
});

describe('coversTest and wildcardMatch', () => {
  it('matches titles and files with * and narrows by project', () => {
    expect(coversTest(entry({ title: 'applies *' }), test, NOW)).toBe(true);
    expect(coversTest(entry({ title: '*coupon', file: 'checkout.*' }), test, NOW)).toBe(true);
    expect(coversTest(entry({ file: 'account.spec.ts' }), test, NOW)).toBe(false);
    expect(coversTest(entry({ project: 'firefox' }), test, NOW)).toBe(false);
    expect(wildcardMatch('a*b*c', 'axxbyyc')).toBe(true);
    expect(wildcardMatch('a*b*c', 'axxbyy')).toBe(false);
    expect(wildcardMatch('exact', 'exactly')).toBe(false);
    // Regex characters are plain text here.
    expect(wildcardMatch('a.(b)+', 'a.(b)+')).toBe(true);
    expect(wildcardMatch('a.(b)+', 'ab')).toBe(false);
  });

  it('stays quick on patterns built to backtrack', () => {
    const text = 'a'.repeat(50_000);
    const started = performance.now();
    expect(wildcardMatch(`${'*a'.repeat(250)}b`, text)).toBe(false);
    // One indexOf per piece; a regex of the same shape backtracks for ever.
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('parseExpiry', () => {
  it('gives the start of a UTC day: days or weeks from today, the day after a date, or no end', () => {
    const today = Date.UTC(2026, 10, 23);
    expect(parseExpiry('14d', NOW)).toBe(today + 14 * DAY);
    expect(parseExpiry('2w', NOW)).toBe(today + 14 * DAY);
    expect(parseExpiry('2026-12-31', NOW)).toBe(Date.UTC(2027, 0, 1));
    expect(parseExpiry('never', NOW)).toBeNull();
  });

  it('refuses the past, impossible dates and other words, naming them', () => {
    expect(() => parseExpiry('2026-01-01', NOW)).toThrow(/in the past/);
    expect(() => parseExpiry('2026-02-30', NOW)).toThrow(/not a date/);
    expect(() => parseExpiry('soon', NOW)).toThrow(/"soon"/);
    expect(() => parseExpiry('0d', NOW)).toThrow(/from 1 day/);
  });
});
