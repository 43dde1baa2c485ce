import { describe, expect, it } from 'vitest';
import type { GateAnswer, GateFailure } from '../../core/gate/types.js';
import { ANNOTATION_LIMIT, data, githubAnnotations, property } from './annotations.js';

const failure = (title: string, cls: GateFailure['class'] = 'new'): GateFailure => ({ title, file: 'checkout.spec.ts', project: 'chromium', browser: 'chromium', class: cls, reason: 'a new failure', evidence: [] });
const answer = (failures: GateFailure[]): GateAnswer => ({ verdict: 'fail', base: 'main', windowDays: 30, baseRuns: 5, littleHistory: false, runLooksBroken: false, counts: { tests: 9, failed: failures.length, flaky: 0 }, failures });

describe('GitHub annotations', () => {
  it('escape as the runner reads them: %, CR, LF in the message; : and , too in properties', () => {
    expect(data('100% done\r\nnext')).toBe('100%25 done%0D%0Anext');
    expect(property('a: b, c%')).toBe('a%3A b%2C c%25');
  });

  it('annotate only new failures at their place; a hostile title stays in its one line', () => {
    const hostile = 'pays\r\n::error file=app.js,line=1::Injected\u2028::add-mask::x %0A';
    const lines = githubAnnotations(answer([failure(hostile), failure('flaky one', 'flaky')]), [
      { file: 'tests/checkout.spec.ts', line: 12, error: 'Error: expect(received).toBe(expected)' },
      { file: 'tests/checkout.spec.ts', line: 20, error: null },
    ]);
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatch(/^::error file=tests\/checkout\.spec\.ts,line=12,title=flakeboard%3A new failure%3A pays /);
    expect(line).not.toMatch(/[\r\n\u2028]/);
    // The properties end at the first `::`: exactly file, line and title, the title's own colons and commas escaped.
    const end = line!.indexOf('::', 2);
    expect(line!.slice('::error '.length, end).split(',').map((p) => p.split('=')[0])).toEqual(['file', 'line', 'title']);
    const message = line!.slice(end + 2);
    expect(message).toContain('::error file=app.js,line=1::Injected');
    expect(message).toContain('%250A');
    expect(message.endsWith('%0AError: expect(received).toBe(expected)')).toBe(true);
  });

  it('annotates at most 10 and says how many more', () => {
    const lines = githubAnnotations(answer(Array.from({ length: 13 }, (_, i) => failure(`t${i}`))), []);
    expect(lines.filter((l) => l.startsWith('::error '))).toHaveLength(ANNOTATION_LIMIT);
    expect(lines.at(-1)).toMatch(/^flakeboard check: 3 more new failure\(s\) are not annotated/);
  });
});
