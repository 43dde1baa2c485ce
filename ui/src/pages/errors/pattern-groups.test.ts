import { describe, expect, it } from 'vitest';
import type { ErrorPattern } from '../../../../core/api/analytics.js';
import { affectedTests, groupByCategory, splitList } from './pattern-groups.js';

const pattern = (category: string, frequency: number, browsers = 'chromium'): ErrorPattern => ({
  error_category: category,
  error_summary: `${category} summary`,
  fingerprint: `${category}-${frequency}`,
  frequency,
  affected_browsers: browsers,
  affected_tests: 'a,b',
  affected_test_count: 2,
  full_error: 'boom',
});

describe('groupByCategory', () => {
  it("groups in the documented category order (docs/screens.md#error-patterns), most frequent pattern first, unknown categories under other", () => {
    const groups = groupByCategory([pattern('Navigation Error', 3), pattern('Test Timeout', 1), pattern('Navigation Error', 9), pattern('Mystery', 2), pattern('other', 4)]);
    expect(groups.map((g) => [g.label, g.occurrences, g.patterns.map((p) => p.frequency)])).toEqual([
      ['Test Timeout', 1, [1]],
      ['Navigation Error', 12, [9, 3]],
      ['Other', 6, [4, 2]],
    ]);
  });
});

describe('lists', () => {
  it('splits comma lists and drops blanks', () => {
    expect(splitList('a, b,,c ')).toEqual(['a', 'b', 'c']);
    expect(splitList('')).toEqual([]);
  });
  it('shows three affected tests and counts the rest', () => {
    expect(affectedTests('a,b,c,d,e')).toEqual({ first: ['a', 'b', 'c'], more: 2 });
    expect(affectedTests('a,b')).toEqual({ first: ['a', 'b'], more: 0 });
    // The server lists at most 20 names and counts every affected test.
    expect(affectedTests('a,b,c,d', 250)).toEqual({ first: ['a', 'b', 'c'], more: 247 });
  });
  it('lists titles whole when the server sends them, commas and all', () => {
    expect(affectedTests('Cart, empty,pays', 2, 3, ['Cart, empty', 'pays'])).toEqual({ first: ['Cart, empty', 'pays'], more: 0 });
  });
});
