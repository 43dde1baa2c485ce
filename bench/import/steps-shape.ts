/**
 * A second shape of report for the import benchmark, as Playwright's JSON reporter writes a
 * real suite: every attempt with its steps (hooks, API calls with nested expect steps), and every
 * failed attempt with the error Playwright records (message with ANSI colours, stack, location,
 * snippet) on the attempt, in `errors` and on the step that failed. The seeded generator's own
 * reports carry neither, so an import cost that grows with steps and errors shows only here.
 */
import type { PwResult, PwStep, PwReport, PwSuite } from '../../core/report/playwright-types.js';

const ESC = '\u001b';

function errorFor(file: string, line: number, n: number) {
  const message = `Error: ${ESC}[2mexpect(${ESC}[22m${ESC}[31mlocator${ESC}[39m${ESC}[2m).${ESC}[22mtoHaveText${ESC}[2m(${ESC}[22m${ESC}[32mexpected${ESC}[39m${ESC}[2m)${ESC}[22m failed\n\nLocator: getByTestId('total-${n % 40}')\nExpected: ${ESC}[32m"${n % 7} items"${ESC}[39m\nReceived: ${ESC}[31m"${(n % 7) + 1} items"${ESC}[39m\nTimeout: 5000ms\n\nCall log:\n  - Expect "toHaveText" with timeout 5000ms\n  - waiting for getByTestId('total-${n % 40}')\n    9 × locator resolved to <span data-testid="total">${(n % 7) + 1} items</span>\n      - unexpected value "${(n % 7) + 1} items"\n`;
  const location = { file: `/home/ci/work/app/tests/${file}`, line, column: 32 };
  const stack = `${message}\n    at /home/ci/work/app/tests/${file}:${line}:32\n    at /home/ci/work/app/node_modules/playwright/lib/common/testType.js:${200 + (n % 50)}:11`;
  const snippet = `  ${line - 1} |   await page.getByRole('button', { name: 'Add' }).click();\n> ${line} |   await expect(page.getByTestId('total')).toHaveText('${n % 7} items');\n    |                                ^\n  ${line + 1} | });`;
  return { message, stack, location, snippet };
}

function stepsFor(result: PwResult, file: string, line: number, n: number): PwStep[] {
  const d = Math.max(3, Math.round(result.duration / 6));
  const failed = result.status === 'failed' || result.status === 'timedOut';
  const error = failed ? errorFor(file, line, n) : undefined;
  return [
    { title: 'Before Hooks', duration: d, steps: [{ title: 'fixture: browser', duration: 1 }, { title: 'fixture: page', duration: d - 1 }] },
    { title: `page.goto(/products/${n % 300})`, duration: d * 2, steps: [] },
    { title: "locator.getByRole('button', { name: 'Add' }).click", duration: d },
    { title: `expect(getByTestId('total')).toHaveText`, duration: d, ...(error ? { error: { message: error.message, stack: error.stack, location: error.location, snippet: error.snippet } } : {}) },
    { title: 'After Hooks', duration: 1, steps: [{ title: 'fixture: page', duration: 1 }] },
  ];
}

/** Adds steps to every attempt and Playwright's error fields to every failed one, in place. */
export function addStepsAndErrors(report: PwReport): void {
  let n = 0;
  const walk = (suite: PwSuite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        for (const result of test.results) {
          n++;
          result.steps = stepsFor(result, spec.file, spec.line, n);
          if (result.status === 'failed' || result.status === 'timedOut') {
            const error = errorFor(spec.file, spec.line, n);
            result.error = error;
            result.errors = [{ message: error.stack, location: error.location }];
            result.errorLocation = error.location;
          }
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
}
