import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PUBLIC_REPORTS_DIR, publicReports } from '../../fixtures/testing/public-reports.js';
import { normaliseReport } from './normalise.js';
import { parseReportBytes } from './parse.js';
import type { PwReport, PwResult, PwTest } from './playwright-types.js';

const have = publicReports().length > 0;
const load = (name: string) => normaliseReport(parseReportBytes(readFileSync(join(PUBLIC_REPORTS_DIR, name)), name));

function report(tests: PwTest[], extra: Partial<PwReport> = {}): PwReport {
  return {
    config: { projects: [{ name: 'chromium' }, { name: 'firefox' }], version: '1.50.0' },
    suites: [{ title: 'a.spec.ts', file: 'a.spec.ts', specs: [], suites: [{ title: 'group', file: 'a.spec.ts', specs: [{ title: 'works', file: 'a.spec.ts', line: 3, column: 5, tests }] }] }],
    errors: [],
    ...extra,
  };
}
const attempt = (status: PwResult['status'], retry = 0, extra: Partial<PwResult> = {}): PwResult => ({ status, retry, duration: 100, ...extra });
const test = (results: PwResult[], extra: Partial<PwTest> = {}): PwTest => ({ projectName: 'chromium', expectedStatus: 'passed', results, ...extra });

describe('normaliseReport: a config without projects', () => {
  it('names the nameless default project chromium, as Playwright runs it, in the tests and the run', () => {
    const run = normaliseReport(report([test([attempt('failed')], { projectName: '' })], { config: { projects: [{ name: '' }], version: '1.50.0' } }));
    expect(run.tests[0]).toMatchObject({ projectName: 'chromium', browser: 'chromium' });
    expect(run.detected).toEqual({ browser: 'chromium', browsers: ['chromium'], project: 'chromium' });
    // Merged reports before 1.59 list no projects at all: the same.
    const merged = normaliseReport(report([test([attempt('passed')], { projectName: '' })], { config: { projects: [], version: '1.50.0' } }));
    expect([merged.tests[0]!.browser, merged.detected.browser]).toEqual(['chromium', 'chromium']);
  });
});

describe('normaliseReport: status rules', () => {
  it('the first attempt decides; a pass on retry is flaky', () => {
    const run = normaliseReport(report([test([attempt('failed'), attempt('passed', 1)])]));
    expect(run.tests[0]).toMatchObject({ status: 'failed', finalStatus: 'passed', passedOnRetry: true, retries: 1, durationMs: 200 });
    expect(run.counts).toEqual({ tests: 1, passed: 0, failed: 1, skipped: 0, flaky: 1 });
  });

  it('test.fail() failing as expected is passed; passing unexpectedly is failed', () => {
    const run = normaliseReport(
      report([test([attempt('failed')], { expectedStatus: 'failed' }), test([attempt('passed')], { expectedStatus: 'failed', projectName: 'firefox' })]),
    );
    expect(run.tests.map((t) => t.status)).toEqual(['passed', 'failed']);
  });

  it('interrupted is failed, timedOut stays timedOut but counts as failed, no attempt is skipped', () => {
    const run = normaliseReport(report([test([attempt('interrupted')]), test([attempt('timedOut')], { projectName: 'firefox' }), test([], { projectName: 'webkit' })]));
    expect(run.tests.map((t) => t.status)).toEqual(['failed', 'timedOut', 'skipped']);
    expect(run.counts).toMatchObject({ passed: 0, failed: 2, skipped: 1 });
  });

  it('keys repeated runs of one test by project and order (--repeat-each)', () => {
    const run = normaliseReport(report([test([attempt('passed')]), test([attempt('failed')])]));
    expect(run.tests.map((t) => t.repeatIndex)).toEqual([0, 1]);
    expect(run.tests[0]!.titlePath).toEqual(['group', 'works']);
  });

  it('counts repeats as one key of place and project name did, NUL characters in names included', () => {
    // Specs spread over suites and files, merged per project, and names holding '\u0000' whose
    // joined keys meet (the counters are looked up by place, then by project name).
    const spec = (title: string, projects: string[], file = 'a.spec.ts') => ({ title, file, line: 3, column: 5, tests: projects.map((p) => test([attempt('passed')], { projectName: p })) });
    const r: PwReport = {
      config: { projects: [{ name: 'chromium' }, { name: 'firefox' }], version: '1.50.0' },
      suites: [
        { title: 'a.spec.ts', file: 'a.spec.ts', specs: [spec('t', ['chromium', 'firefox', 'chromium']), spec('t\u0000x', ['y', 'y\u0000z'])], suites: [{ title: 'g', file: 'a.spec.ts', specs: [spec('t', ['chromium'])] }] },
        { title: 'a.spec.ts', file: 'a.spec.ts', specs: [spec('t', ['firefox', 'x\u0000y', 'x\u0000y\u0000z']), spec('t\u0000x\u0000y', ['z']), spec('t\u0000x', ['y\u0000z'])] },
        { title: 'b.spec.ts', file: 'b.spec.ts', specs: [spec('t', ['chromium'], 'b.spec.ts')], suites: [{ title: '', file: 'b.spec.ts', specs: [spec('t', ['chromium'], 'b.spec.ts')] }] },
      ],
      errors: [],
    };
    // The key this replaced, counted over the same tests in the same order.
    const seen = new Map<string, number>();
    const expected: number[] = [];
    const walk = (suite: PwReport['suites'][number], describePath: string[]) => {
      for (const s of suite.specs ?? []) {
        for (const t of s.tests) {
          const key = `${s.file}\u0000${s.line}\u0000${s.column}\u0000${describePath.join('\u0000')}\u0000${s.title}\u0000${t.projectName}`;
          expected.push(seen.get(key) ?? 0);
          seen.set(key, (seen.get(key) ?? 0) + 1);
        }
      }
      for (const child of suite.suites ?? []) walk(child, [...describePath, child.title]);
    };
    for (const suite of r.suites) walk(suite, []);
    const run = normaliseReport(r);
    expect(run.tests.map((t) => t.repeatIndex)).toEqual(expected);
    // The cases that meet: repeats of one test across files suites, 't' + 'x\0y' = 't\0x' + 'y',
    // 't' + 'x\0y\0z' = 't\0x\0y' + 'z' = 't\0x' + 'y\0z', and an empty describe title.
    expect(expected).toEqual([0, 0, 1, 0, 0, 0, 1, 1, 1, 2, 3, 0, 1]);
  });

  it('a report with no tests and an error failed to load', () => {
    const run = normaliseReport({ ...report([]), suites: [], errors: [{ message: 'SyntaxError: boom' }] });
    expect(run.loadFailed).toBe(true);
    expect(run.errors[0]!.summary).toBe('SyntaxError: boom');
  });

  it('takes the error, steps and output of each attempt', () => {
    const run = normaliseReport(
      report([
        test([
          attempt('failed', 0, {
            error: { message: '\u001b[31mTest timeout of 30000ms exceeded.\u001b[39m' },
            errors: [{ message: 'Test timeout of 30000ms exceeded.' }, { message: 'Error: locator.click: Test timeout of 30000ms exceeded.' }],
            steps: [{ title: 'outer', duration: 5, steps: [{ title: 'inner', duration: 2, error: { message: 'nope' } }] }],
            stdout: [{ text: 'hello ' }, { buffer: Buffer.from('wörld').toString('base64') }],
            attachments: [{ name: 'screenshot', contentType: 'image/png', body: 'AAAA' }],
          }),
        ]),
      ]),
    );
    const t = run.tests[0]!;
    expect(t.error).toMatchObject({ category: 'Test Timeout', summary: 'Test timeout of 30000ms exceeded.' });
    expect(t.attempts[0]!.otherErrors).toEqual(['Error: locator.click: Test timeout of 30000ms exceeded.']);
    expect(t.attempts[0]!.steps[0]!.steps![0]).toEqual({ title: 'inner', category: 'test.step', duration: 2, error: 'nope' });
    expect(t.attempts[0]!.stdout).toBe('hello wörld');
    expect(t.attempts[0]!.attachments).toEqual([{ name: 'screenshot', contentType: 'image/png', size: 3 }]);
  });
});

describe.runIf(have)('normaliseReport on public samples', () => {
  it('merged sharded reports (1.37): project ids are salted, names group them', () => {
    const run = load('05-merge-reports-sharded-1.37.json');
    expect(new Set(run.tests.map((t) => t.browser))).toEqual(new Set(['chromium', 'firefox', 'webkit']));
    // config.projects is [] before 1.59: browsers come from the tests.
    expect(run.detected).toEqual({ browser: 'chromium, firefox, webkit', browsers: ['chromium', 'firefox', 'webkit'], project: 'Multi-browser' });
    expect(run.shard).toBeNull();
  });

  it('an unnamed project is Playwright\'s default, chromium, never "unknown", and git info comes from captureGitInfo metadata', () => {
    const run = load('12-unnamed-project-gitinfo-1.60.json');
    expect(run.tests.every((t) => t.browser === 'chromium' && t.projectName === 'chromium')).toBe(true);
    expect(run.detected).toMatchObject({ browser: 'chromium', project: 'chromium' });
    expect(run.git.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(run.git.branch).toBeTruthy();
    const timedOut = run.tests.find((t) => t.status === 'timedOut')!;
    expect(timedOut.error?.category).toBe('Test Timeout');
  });

  it('1.31 reports without project ids keep the code frame from the formatted errors', () => {
    const run = load('03-no-projectid-failure-1.31.json');
    const failed = run.tests.find((t) => t.status === 'failed')!;
    expect(failed.error?.snippet).toMatch(/\|/);
    expect(failed.error?.location).toMatch(/:\d+:\d+$/);
    expect(failed.attempts[0]!.attachments.map((a) => a.contentType)).toContain('image/png');
  });

  it('only the projects that ran name the run; five device projects stay distinct', () => {
    expect(load('08-tags-annotations-nested-steps-1.44.json').detected).toMatchObject({ browser: 'chromium', project: 'chromium' });
    const five = load('09-five-projects-interrupted-1.47.json');
    expect(five.detected.browsers).toHaveLength(5);
    expect(five.detected.project).toBe('Multi-browser');
  });

  it('tags, annotations and nested steps are kept', () => {
    const run = load('08-tags-annotations-nested-steps-1.44.json');
    expect(run.tests.some((t) => t.tags.length > 0)).toBe(true);
    expect(run.tests.some((t) => t.annotations.some((a) => a.type === 'issue'))).toBe(true);
    expect(run.tests.some((t) => t.attempts[0]!.steps.some((s) => s.steps?.some((c) => c.steps)))).toBe(true);
  });

  it('the top-level syntax error makes a run that failed to load', () => {
    const run = load('01-toplevel-syntax-error-1.55.json');
    expect(run.loadFailed).toBe(true);
    expect(run.errors[0]!.location).toMatch(/documents\.spec\.js:46:4$/);
  });
});
