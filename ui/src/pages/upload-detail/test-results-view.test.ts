import { describe, expect, it } from 'vitest';
import type { TestResultRow } from '../../../../core/api/uploads.js';
import { filterAndSortTests, firstErrorLine, searchIndex, slowestTests, topErrorPatterns } from './test-results-view.js';

let nextId = 1;
function row(partial: Partial<TestResultRow>): TestResultRow {
  return {
    id: nextId++,
    test_title: 't',
    test_full_title: 't',
    test_file: 'a.spec.ts',
    browser: 'chromium',
    project_name: 'chromium',
    status: 'passed',
    outcome: 'expected',
    duration_ms: 100,
    error_message: null,
    error_category: null,
    retry_count: 0,
    ...partial,
  };
}

describe('firstErrorLine', () => {
  it('strips colour codes and takes the first non-blank line', () => {
    expect(firstErrorLine('\n  \u001b[31mError: expect(received)\u001b[39m  \nmore')).toBe('Error: expect(received)');
    expect(firstErrorLine(null)).toBe('');
  });
});

describe('topErrorPatterns', () => {
  it('groups by first line cut to 100 characters, most frequent first, 5 at most', () => {
    const long = 'x'.repeat(150);
    const results = [
      row({ error_message: `${long}a\nstack` }),
      row({ error_message: `${long}b\nother stack` }),
      row({ error_message: `${long}c` }),
      ...['A', 'B', 'C', 'D', 'E'].map((letter) => row({ error_message: `Error ${letter}` })),
      row({ error_message: 'Error E\nsecond' }),
      row({}),
    ];
    const top = topErrorPatterns(results);
    expect(top).toHaveLength(5);
    expect(top[0]).toEqual({ pattern: `${'x'.repeat(100)}...`, count: 3 });
    expect(top[1]).toEqual({ pattern: 'Error E', count: 2 });
  });
});

describe('filterAndSortTests', () => {
  const results = [
    row({ test_title: 'checkout works', status: 'passed', duration_ms: 500 }),
    row({ test_title: 'login fails', test_file: 'auth/login.spec.ts', status: 'failed', duration_ms: 40_000, error_message: 'TimeoutError: \u001b[2mlocator.click\u001b[22m' }),
    row({ test_title: 'banner', status: 'timedOut', duration_ms: 12_000 }),
    row({ test_title: 'admin only', status: 'skipped', duration_ms: 0 }),
  ];
  const index = searchIndex(results);
  const titles = (list: TestResultRow[]) => list.map((r) => r.test_title);

  it('sorts by status (failures first), duration (longest first) or name', () => {
    expect(titles(filterAndSortTests(results, index, { search: '', status: 'all', sort: 'status' }))).toEqual(['login fails', 'banner', 'checkout works', 'admin only']);
    expect(titles(filterAndSortTests(results, index, { search: '', status: 'all', sort: 'duration' }))).toEqual(['login fails', 'banner', 'checkout works', 'admin only']);
    expect(titles(filterAndSortTests(results, index, { search: '', status: 'all', sort: 'name' }))).toEqual(['admin only', 'banner', 'checkout works', 'login fails']);
  });

  it('Failed includes timed-out tests', () => {
    expect(titles(filterAndSortTests(results, index, { search: '', status: 'failed', sort: 'name' }))).toEqual(['banner', 'login fails']);
    expect(titles(filterAndSortTests(results, index, { search: '', status: 'skipped', sort: 'name' }))).toEqual(['admin only']);
  });

  it('searches title, file and the error text without colour codes, ignoring case', () => {
    expect(titles(filterAndSortTests(results, index, { search: 'CHECKOUT', status: 'all', sort: 'name' }))).toEqual(['checkout works']);
    expect(titles(filterAndSortTests(results, index, { search: 'auth/login', status: 'all', sort: 'name' }))).toEqual(['login fails']);
    expect(titles(filterAndSortTests(results, index, { search: 'timeouterror: locator.click', status: 'all', sort: 'name' }))).toEqual(['login fails']);
    expect(filterAndSortTests(results, index, { search: 'nothing like this', status: 'all', sort: 'name' })).toEqual([]);
  });

  it('slowestTests keeps the longest ten', () => {
    const many = Array.from({ length: 15 }, (_, i) => row({ duration_ms: i }));
    expect(slowestTests(many).map((r) => r.duration_ms)).toEqual([14, 13, 12, 11, 10, 9, 8, 7, 6, 5]);
  });
});
