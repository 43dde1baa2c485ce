import { describe, expect, it } from 'vitest';
import { sameSpecFile } from './test-lookup.js';

describe('sameSpecFile', () => {
  it('matches a path to the one relative to testDir, either way round, with Windows slashes and ./', () => {
    expect(sameSpecFile('tests/demo.spec.ts', 'demo.spec.ts')).toBe(true);
    expect(sameSpecFile('demo.spec.ts', 'e2e/tests/demo.spec.ts')).toBe(true);
    expect(sameSpecFile('.\\tests\\demo.spec.ts', 'tests/demo.spec.ts')).toBe(true);
    expect(sameSpecFile('./demo.spec.ts', 'demo.spec.ts')).toBe(true);
  });

  it('does not match a different file that ends the same way', () => {
    expect(sameSpecFile('tests/my-demo.spec.ts', 'demo.spec.ts')).toBe(false);
    expect(sameSpecFile('a/demo.spec.ts', 'b/demo.spec.ts')).toBe(false);
  });
});
