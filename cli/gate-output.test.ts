import { describe, expect, it } from 'vitest';
import type { GateAnswer } from '../core/gate/types.js';
import { gateMarkdown } from './gate-markdown.js';
import { gateText } from './gate-output.js';

const hostile = 'pays\r\n::error file=app.js,line=1::Injected\u2028::add-mask::secret \u001b]8;;https://evil.example\u0007link @octo-org/security-team https://evil.example/x | <b>';
const answer: GateAnswer = {
  verdict: 'fail',
  base: 'main',
  windowDays: 30,
  baseRuns: 5,
  littleHistory: false,
  runLooksBroken: false,
  counts: { tests: 2, failed: 1, flaky: 0 },
  failures: [{ title: hostile, file: 'checkout.spec.ts', project: 'chromium', browser: 'chromium', class: 'new', reason: 'a new failure', evidence: [] }],
};

describe('the gate’s output of report text', () => {
  it('prints a title as one inert line: no CI workflow command, no terminal escape', () => {
    const text = gateText(answer);
    for (const line of text.split('\n')) expect(line.startsWith('::')).toBe(false);
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u2028\u2029]/);
    expect(text.split('\n').filter((l) => l.includes('Injected'))).toHaveLength(1);
  });

  it('writes a Markdown cell that cannot break the table, ping a team, link out or carry HTML', () => {
    const markdown = gateMarkdown(answer, { dashboard: null });
    const row = markdown.split('\n').find((l) => l.includes('Injected'))!;
    expect(row).toContain('\\|');
    expect(row).toContain('\\<b\\>');
    expect(row).toContain('@\u200bocto-org');
    expect(row).toContain('https:\u200b//evil.example');
    expect(markdown).not.toMatch(/[\r\u001b\u2028]/);
  });
});

describe('the gate’s project names', () => {
  it('never prints an empty project: a nameless one shows its browser in the line and the table', () => {
    const nameless: GateAnswer = { ...answer, failures: [{ ...answer.failures[0]!, title: 'pays', project: '', browser: 'chromium' }] };
    expect(gateText(nameless)).toContain('checkout.spec.ts › pays [chromium]:');
    expect(gateText(nameless)).not.toContain('[]');
    expect(gateMarkdown(nameless, { dashboard: null })).toMatch(/\| chromium \| a new failure \|/);
  });
});
