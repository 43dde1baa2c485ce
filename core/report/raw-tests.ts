import type { PwSuite, PwTest } from './playwright-types.js';

/** The raw tests of a top-level suite in the order RunNormaliser.suiteTests yields them. */
export function* rawTests(fileSuite: PwSuite): Generator<PwTest, void, undefined> {
  const stack: PwSuite[] = [fileSuite];
  while (stack.length > 0) {
    const suite = stack.pop()!;
    for (const spec of suite.specs ?? []) for (const test of spec.tests) yield test;
    const children = suite.suites ?? [];
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
}
