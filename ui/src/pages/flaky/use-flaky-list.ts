import { useEffect, useState } from 'react';
import { DEFAULT_WINDOW_DAYS } from '../../../../core/analytics/formulas.js';
import type { FlakySortKey } from '../../../../core/api/analytics.js';
import { flakyTestsPage } from '../../api/calls.js';
import { useBranchParam } from '../../lib/branch-param.js';
import { onTestDataUpdated } from '../../lib/events.js';
import { useApi } from '../../lib/use-api.js';
import { useServerSearch } from '../../lib/use-server-search.js';
import type { SortChoice } from './FlakyToolbar.js';
import type { FlakyFilter } from './flaky-filter.js';
import { clearTestDetailsCache } from './test-details-cache.js';

/** Rows per page. */
const PAGE_SIZE = 50;

/**
 * The flaky list's filters (trend or severity, search, browser, owner, branch, sort, window,
 * page), the page of groups the server answers for them and which groups are open. Any change
 * of filter starts again at page 1 with every group closed.
 */
export function useFlakyList() {
  const [version, setVersion] = useState(0);
  const [filter, setFilter] = useState<FlakyFilter>('all');
  const [page, setPage] = useState(1);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  // What the box shows, and what the server was asked for once typing paused.
  const { input: searchInput, setInput: setSearchInput, search, setBoth: setSearchNow } = useServerSearch(() => {
    setPage(1);
    setExpanded(new Set());
  });
  const [browser, setBrowser] = useState<string | null>(null);
  const [owner, setOwner] = useState<string | null>(null);
  const [branch, setBranch] = useBranchParam();
  const [sort, setSort] = useState<SortChoice>('pass_rate:asc');
  // The same window as the dashboard's (its links carry any other): its flaky count is this list's.
  const [days, setDays] = useState(DEFAULT_WINDOW_DAYS);
  const [sortKey, order] = sort.split(':') as [FlakySortKey, 'asc' | 'desc'];
  const groups = useApi(
    () => flakyTestsPage({ days, page, pageSize: PAGE_SIZE, search, browser, severity: filter === 'all' ? null : filter, sort: sortKey, order, branch, owner }),
    [days, page, search, browser, filter, sortKey, order, branch, owner, version],
  );

  useEffect(
    () =>
      onTestDataUpdated(() => {
        clearTestDetailsCache();
        setVersion((v) => v + 1);
      }),
    [],
  );

  /** Sets a filter, back at page 1 with every group closed. */
  const restart = <V>(set: (value: V) => void) => (value: V) => {
    set(value);
    setExpanded(new Set());
    setPage(1);
  };
  const answer = groups.data;
  // No flaky test at all: not merely none for this search, browser or trend.
  const nothingStored = answer !== undefined && answer.counts.all === 0 && search === '' && browser === null && branch === null && owner === null && (filter === 'all' || !['improving', 'declining', 'stable', 'new'].includes(filter));

  return {
    groups,
    answer,
    nothingStored,
    filter,
    searchInput,
    browser,
    owner,
    branch,
    sort,
    days,
    expanded,
    setSearchInput,
    /** A trend or severity card: choosing the shown one again shows all. */
    changeFilter: restart((next: FlakyFilter) => setFilter((current) => (current === next ? 'all' : next))),
    changeDays: restart(setDays),
    changeBrowser: restart(setBrowser),
    changeOwner: restart(setOwner),
    changeBranch: restart(setBranch),
    changeSort: restart(setSort),
    changePage: (next: number) => {
      setPage(next);
      setExpanded(new Set());
    },
    toggle: (key: string) =>
      setExpanded((current) => {
        const next = new Set(current);
        if (!next.delete(key)) next.add(key);
        return next;
      }),
    // For the address: its window alone, its severity as the filter, its test as the search.
    showDays: setDays,
    showSeverity: restart(setFilter),
    searchNow: (text: string) => {
      setSearchNow(text);
      setPage(1);
    },
    expandOnly: (key: string) => setExpanded(new Set([key])),
  };
}

export type FlakyList = ReturnType<typeof useFlakyList>;
