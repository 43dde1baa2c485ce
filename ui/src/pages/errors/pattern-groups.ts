import type { ErrorPattern } from '../../../../core/api/analytics.js';
import { ERROR_CATEGORIES, type ErrorCategory } from '../../../../core/errors/categories.js';

export interface CategoryGroup {
  category: ErrorCategory;
  label: string;
  patterns: ErrorPattern[];
  /** Sum of the patterns' frequencies. */
  occurrences: number;
}

/** The server stores the labels of docs/screens.md#error-patterns as the category; only 'other' needs a heading of its own. */
export function categoryLabel(category: ErrorCategory): string {
  return category === 'other' ? 'Other' : category;
}

/** The API's comma lists (affected_browsers, affected_tests) as items. */
export function splitList(list: string | null | undefined): string[] {
  return (list ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** One group per category in the order of docs/screens.md#error-patterns; a category the UI does not know counts as other. */
export function groupByCategory(patterns: readonly ErrorPattern[]): CategoryGroup[] {
  const known = new Set<string>(ERROR_CATEGORIES);
  const groups = new Map<ErrorCategory, ErrorPattern[]>();
  for (const p of patterns) {
    const category = (known.has(p.error_category) ? p.error_category : 'other') as ErrorCategory;
    const group = groups.get(category);
    if (group) group.push(p);
    else groups.set(category, [p]);
  }
  return ERROR_CATEGORIES.filter((c) => groups.has(c)).map((category) => {
    const list = [...groups.get(category)!].sort((a, b) => b.frequency - a.frequency);
    return { category, label: categoryLabel(category), patterns: list, occurrences: list.reduce((s, p) => s + p.frequency, 0) };
  });
}

/** The first `shown` affected tests and how many more there are (the server lists a few and counts all). */
export function affectedTests(list: string, count?: number, shown = 3, titles?: string[]): { first: string[]; more: number } {
  // The whole titles when the server sends them: splitting the comma list cuts "Cart, empty".
  const tests = titles ?? splitList(list);
  return { first: tests.slice(0, shown), more: Math.max(0, (count ?? tests.length) - Math.min(shown, tests.length)) };
}
