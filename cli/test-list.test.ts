import { describe, expect, it } from 'vitest';
import { listNamesProjects, testListLine } from './test-list.js';

const test = (file: string, titlePath: string[], project = 'firefox') => ({ project, file, title: titlePath.at(-1)!, titlePath });

describe('testListLine', () => {
  it('writes the project, file and title path joined by › as Playwright reads them', () => {
    expect(testListLine(test('a/b.spec.ts', ['cart', 'applies a coupon']), true)).toEqual({ line: '[firefox] › a/b.spec.ts › cart › applies a coupon' });
    expect(testListLine(test('b.spec.ts', ['x > y']), false)).toEqual({ line: 'b.spec.ts › x > y' });
  });

  it('refuses names Playwright would read as something else', () => {
    const problem = (t: ReturnType<typeof test>, withProject = true) => {
      const made = testListLine(t, withProject);
      return 'problem' in made ? made.problem : null;
    };
    expect(problem(test('b.spec.ts', ['two\r\nlines']))).toContain('line break');
    expect(problem(test('b.spec.ts', ['ok'], 'p\nq'))).toContain('line break');
    expect(problem(test('b.spec.ts', ['a › b']))).toContain('separator');
    expect(problem(test('b.spec.ts', ['ok '], 'p'))).toContain('trims');
    expect(problem(test('b.spec.ts:12', ['ok']))).toContain(':number');
    expect(problem(test('#b.spec.ts', ['ok']), false)).toContain('comment');
    expect(problem(test('#b.spec.ts', ['ok']), true)).toBeNull();
  });

  it('names projects unless the runs hold the default project alone', () => {
    expect(listNamesProjects(['chromium'])).toBe(false);
    expect(listNamesProjects(['chromium', 'firefox'])).toBe(true);
    expect(listNamesProjects(['mobile'])).toBe(true);
  });
});
