/** The Test Results table, error patterns and slowest tests of a run's page (SPEC.md section 2), as pure functions. */
import { stripAnsi } from '../../../../core/ansi.js';
import type { TestResultRow } from '../../../../core/api/uploads.js';
import { truncate } from '../../lib/format.js';

export type StatusFilter = 'all' | 'passed' | 'failed' | 'skipped';
export type SortKey = 'status' | 'duration' | 'name';

/** The first non-blank line of an error, colour codes stripped; '' for none. */
export function firstErrorLine(message: string | null | undefined): string {
  if (!message) return '';
  for (const line of stripAnsi(message).split('\n')) {
    const trimmed = line.trim();
    if (trimmed !== '') return trimmed;
  }
  return '';
}

export interface ErrorPatternCount {
  pattern: string;
  count: number;
}

/** SPEC.md section 9: the top 5 error first lines, each limited to 100 characters, with their counts. */
export function topErrorPatterns(results: readonly TestResultRow[], limit = 5, maxLength = 100): ErrorPatternCount[] {
  const counts = new Map<string, number>();
  for (const result of results) {
    const line = firstErrorLine(result.error_message);
    if (line === '') continue;
    const pattern = truncate(line, maxLength);
    counts.set(pattern, (counts.get(pattern) ?? 0) + 1);
  }
  return [...counts]
    .map(([pattern, count]) => ({ pattern, count }))
    .sort((a, b) => b.count - a.count || a.pattern.localeCompare(b.pattern))
    .slice(0, limit);
}

/** SPEC.md section 9: the slowest chart shows 10 tests. */
export function slowestTests(results: readonly TestResultRow[], limit = 10): TestResultRow[] {
  return [...results].sort((a, b) => b.duration_ms - a.duration_ms).slice(0, limit);
}

/** Failures first: they are what a reader of a run looks for. timedOut counts as failed (SPEC.md section 3). */
const STATUS_ORDER: Record<TestResultRow['status'], number> = { failed: 0, timedOut: 1, passed: 2, skipped: 3 };

export function matchesStatus(status: TestResultRow['status'], filter: StatusFilter): boolean {
  if (filter === 'all') return true;
  if (filter === 'failed') return status === 'failed' || status === 'timedOut';
  return status === filter;
}

/** Lower-cased title, file and error text of each row, computed once per run so typing stays fast on thousands of tests. */
export function searchIndex(results: readonly TestResultRow[]): string[] {
  return results.map((r) => `${r.test_full_title || r.test_title}\n${r.test_title}\n${r.test_file}\n${stripAnsi(r.error_message ?? '')}`.toLowerCase());
}

/** Search over title, file and error message (case-insensitive), the status filter, then the sort. */
export function filterAndSortTests(
  results: readonly TestResultRow[],
  index: readonly string[],
  { search, status, sort }: { search: string; status: StatusFilter; sort: SortKey },
): TestResultRow[] {
  const needle = search.trim().toLowerCase();
  const kept = results.filter((r, i) => matchesStatus(r.status, status) && (needle === '' || index[i]!.includes(needle)));
  const byName = (a: TestResultRow, b: TestResultRow) => a.test_title.localeCompare(b.test_title) || a.test_file.localeCompare(b.test_file) || a.browser.localeCompare(b.browser);
  const compare: Record<SortKey, (a: TestResultRow, b: TestResultRow) => number> = {
    status: (a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || byName(a, b),
    duration: (a, b) => b.duration_ms - a.duration_ms || byName(a, b),
    name: byName,
  };
  return kept.sort(compare[sort]);
}
