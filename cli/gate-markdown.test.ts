import { describe, expect, it } from 'vitest';
import type { GateAnswer, GateFailure } from '../core/gate/types.js';
import { cell, COMMENT_LIMIT, gateMarkdown } from './gate-markdown.js';

const failure = (over: Partial<GateFailure>): GateFailure => ({
  title: 'pays',
  file: 'checkout.spec.ts',
  project: 'chromium',
  browser: 'chromium',
  class: 'new',
  reason: 'a new failure: passed in all 5 base-branch runs in the window',
  evidence: [],
  onBase: { runs: 5, failed: 0, passedOnRetry: 0 },
  ...over,
});
const answer = (failures: GateFailure[]): GateAnswer => ({
  verdict: failures.some((f) => f.class === 'new') ? 'fail' : 'pass',
  base: 'main',
  windowDays: 30,
  baseRuns: 5,
  littleHistory: false,
  runLooksBroken: false,
  counts: { tests: 10, failed: failures.length, flaky: 0 },
  failures,
});

describe('the gate’s Markdown', () => {
  it('names each test’s owners under its file, with no @mention that pings', () => {
    const markdown = gateMarkdown(answer([failure({ title: 'total', owners: ['@shop/checkout', 'rita'] }), failure({ title: 'coupon', owners: [] })]), { dashboard: null });
    expect(markdown).toContain('total<br><sub>checkout.spec.ts · owner @\u200bshop/checkout rita</sub>');
    expect(markdown).toContain('coupon<br><sub>checkout.spec.ts</sub>');
  });

  it('has a table per class; a flaky test shows its failure rate on base, a quarantined one its entry', () => {
    const markdown = gateMarkdown(
      answer([
        failure({ title: 'total' }),
        failure({ title: 'coupon', class: 'broken-on-base', reason: 'fails on the base branch too' }),
        failure({ title: 'payment', class: 'flaky', onBase: { runs: 5, failed: 2, passedOnRetry: 1 } }),
        failure({ title: 'receipt', class: 'quarantined', onBase: { runs: 4, failed: 1, passedOnRetry: 0 }, quarantine: { id: 1, reason: 'the mail stub drops messages', owner: 'rita', expiresAt: '2026-12-10T00:00:00.000Z', through: '2026-12-09' } }),
      ]),
      { dashboard: 'https://flakeboard.example.com', buildUrl: 'https://github.com/o/r/actions/runs/9' },
    );
    expect(markdown).toContain('#### ✗ New failures (1): these fail the check');
    expect(markdown).toContain('#### ! Broken on main too (1)');
    expect(markdown).toContain('#### ~ Flaky on main (1)');
    expect(markdown).toMatch(/\| chromium \| 2 of 5 runs \(40 %\), 1 passed on a retry \| not quarantined \|/);
    expect(markdown).toMatch(/\| chromium \| 1 of 4 runs \(25 %\) \| rita \| the mail stub drops messages \| 2026-12-09 \|/);
    expect(markdown).toContain('[dashboard](https://flakeboard.example.com/#/flaky-tests)');
    expect(markdown).toContain('[this build](https://github.com/o/r/actions/runs/9)');
    expect(markdown).toContain('(https://flakeboard.example.com/#/flaky-tests?test=payment&file=checkout.spec.ts&browser=chromium)');
  });

  it('escapes report text: no HTML, mention, link, table break, emphasis or entity gets through', () => {
    const hostile = '<img src=x onerror=alert(1)> @octocat @org/team [x](javascript:alert(1)) **b** | `c` &lt; www.evil.example ![i](https://evil.example/i.png) $x$ \r\n# heading';
    expect(cell(hostile)).toBe(
      '\\<img src=x onerror=alert(1)\\> @\u200boctocat @\u200borg/team \\[x\\](javascript:alert(1)) \\*\\*b\\*\\* \\| \\`c\\` \\&lt; www\u200b.evil.example \\!\\[i\\](https:\u200b//evil.example/i.png) \\$x\\$   \\# heading',
    );
    const markdown = gateMarkdown(answer([failure({ title: hostile, class: 'quarantined', quarantine: { id: 1, reason: hostile, owner: '@octocat', expiresAt: null, through: null } })]), { dashboard: 'https://flakeboard.example.com' });
    expect(markdown).not.toMatch(/(?<!\\)<img|@octocat|\r/);
    // The title inside its dashboard link is percent-encoded: nothing closes the link early.
    expect(markdown).toMatch(/\]\(https:\/\/flakeboard\.example\.com\/#\/flaky-tests\?test=%3Cimg[^()\s]*\) \|/);
  });

  it('stays under GitHub’s comment limit, counting what it leaves out', () => {
    const many = Array.from({ length: 2_000 }, (_, i) => failure({ title: `test ${i} ${'x'.repeat(300)}`, class: i < 1_500 ? 'new' : 'flaky' }));
    const markdown = gateMarkdown(answer(many), { dashboard: null, limit: COMMENT_LIMIT - 20 });
    expect(markdown.length).toBeLessThanOrEqual(COMMENT_LIMIT - 20);
    const shown = markdown.split('\n').filter((l) => /^\| test \d/.test(l)).length;
    expect(shown).toBeGreaterThan(50);
    expect(markdown).toContain(`and ${1_500 - shown} more new`);
    expect(markdown).toContain('and 500 more flaky');
    expect(markdown).toMatch(/Only a new failure fails the check/);
    // One very long title is cut, not allowed to fill the comment.
    expect(cell('y'.repeat(10_000)).length).toBeLessThan(500);
  });
});
