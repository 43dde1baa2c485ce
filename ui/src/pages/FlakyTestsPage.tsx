import { Button, Group, NativeSelect, Text } from '@mantine/core';
import { DEFAULT_WINDOW_DAYS } from '../../../core/analytics/formulas.js';
import { parseDays, TIME_RANGES } from '../lib/time-range.js';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { TrendDirection } from '../../../core/analytics/formulas.js';
import type { BrowserEntry, FlakySortKey, FlakyTestGroup } from '../../../core/api/analytics.js';
import { flakyTestsPage } from '../api/calls.js';
import { ListPager } from '../components/ListPager.js';
import { PageHeader } from '../components/PageHeader.js';
import { EmptyState, ErrorState, LoadingState } from '../components/PageState.js';
import { onTestDataUpdated } from '../lib/events.js';
import { useApi } from '../lib/use-api.js';
import { useServerSearch } from '../lib/use-server-search.js';
import { BranchPicker } from '../components/BranchPicker.js';
import { useBranchParam } from '../lib/branch-param.js';
import { FlakyDetailDialog, type DialogSelection } from './flaky/FlakyDetailDialog.js';
import { FlakyFilterStatus } from './flaky/FlakyFilterStatus.js';
import { FlakyGroupTable } from './flaky/FlakyGroupTable.js';
import { FlakyStatCards } from './flaky/FlakyStatCards.js';
import { FlakyToolbar, type SortChoice } from './flaky/FlakyToolbar.js';
import { groupKey, parseFilter, type FlakyFilter } from './flaky/flaky-filter.js';
import { useQuarantine } from '../lib/quarantine.js';
import { clearTestDetailsCache } from './flaky/test-details-cache.js';
import { UnownedLine } from './flaky/UnownedLine.js';
import { UNOWNED } from '../../../core/owners/test-owners.js';

/** The deep link's highlight and dialog delay (docs/screens.md#flaky-test-analysis). */
const HIGHLIGHT_MS = 3000;
const DIALOG_DELAY_MS = 500;
/** Rows per page, and how long typing pauses before the server is asked. */
const PAGE_SIZE = 50;

interface DeepLink {
  test: string;
  file: string;
  browser: string | null;
}

interface DeepLinkTarget {
  key: string;
  group: FlakyTestGroup;
  entry: BrowserEntry | null;
}

export function FlakyTestsPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const [version, setVersion] = useState(0);
  const quarantine = useQuarantine();
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
  const answer = groups.data;

  const [highlighted, setHighlighted] = useState<string | null>(null);
  const [selection, setSelection] = useState<DialogSelection | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const rows = useRef(new Map<string, HTMLTableRowElement>());

  // The query (severity, test, file, browser) is read whenever the address brings one; it is
  // applied during render so the first paint already shows the filtered table.
  const [seenSearch, setSeenSearch] = useState<string | null>(null);
  const [deepLink, setDeepLink] = useState<DeepLink | null>(null);
  const [target, setTarget] = useState<DeepLinkTarget | null>(null);
  if (location.search !== seenSearch) {
    setSeenSearch(location.search);
    const params = new URLSearchParams(location.search);
    if (params.has('days')) setDays(parseDays(params.get('days'), DEFAULT_WINDOW_DAYS));
    if (params.has('severity')) {
      setFilter(parseFilter(params.get('severity')));
      setExpanded(new Set());
      setPage(1);
    }
    const test = params.get('test');
    const file = params.get('file');
    if (test && file) {
      // The server finds the test: it is searched for by its title, which the box then shows.
      setDeepLink({ test, file, browser: params.get('browser') });
      setSearchNow(test);
      setPage(1);
    }
  }
  if (deepLink && answer && !groups.loading) {
    setDeepLink(null);
    const group = answer.items.find((g) => g.test_title === deepLink.test && g.test_file === deepLink.file);
    if (group) {
      const key = groupKey(group);
      setExpanded(new Set([key]));
      setHighlighted(key);
      setTarget({ key, group, entry: group.browsers.find((b) => b.browser === deepLink.browser) ?? null });
    }
  }

  useEffect(() => {
    if (!target) return;
    rows.current.get(target.key)?.scrollIntoView({ block: 'center', behavior: 'smooth' });
    const unhighlight = setTimeout(() => setHighlighted((current) => (current === target.key ? null : current)), HIGHLIGHT_MS);
    const open = target.entry
      ? setTimeout(() => {
          setSelection({ group: target.group, entry: target.entry! });
          setDialogOpen(true);
        }, DIALOG_DELAY_MS)
      : undefined;
    return () => {
      clearTimeout(unhighlight);
      clearTimeout(open);
    };
  }, [target]);

  // Once the groups are in and the query has done its work, the address goes back to /flaky-tests
  // (keeping the branch filter, which lives in the address).
  const settled = !groups.loading && (groups.data !== undefined || groups.error !== null);
  const kept = branch ? `?${new URLSearchParams({ branch })}` : '';
  useEffect(() => {
    if (settled && location.search !== kept) navigate(`/flaky-tests${kept}`, { replace: true });
  }, [settled, location.search, kept, navigate]);

  useEffect(
    () =>
      onTestDataUpdated(() => {
        clearTestDetailsCache();
        setVersion((v) => v + 1);
      }),
    [],
  );

  const changeFilter = (next: FlakyFilter) => {
    setFilter((current) => (current === next ? 'all' : next));
    setExpanded(new Set());
    setPage(1);
  };
  const changeDays = (next: number) => {
    setDays(next);
    setExpanded(new Set());
    setPage(1);
  };
  const changeBrowser = (next: string | null) => {
    setBrowser(next);
    setExpanded(new Set());
    setPage(1);
  };
  const changeOwner = (next: string | null) => {
    setOwner(next);
    setExpanded(new Set());
    setPage(1);
  };
  const changeBranch = (next: string | null) => {
    setBranch(next);
    setExpanded(new Set());
    setPage(1);
  };
  const changeSort = (next: SortChoice) => {
    setSort(next);
    setExpanded(new Set());
    setPage(1);
  };
  const changePage = (next: number) => {
    setPage(next);
    setExpanded(new Set());
  };
  const toggle = (key: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(key)) next.add(key);
      return next;
    });

  // No flaky test at all: not merely none for this search, browser or trend.
  const nothingStored = answer !== undefined && answer.counts.all === 0 && search === '' && browser === null && branch === null && owner === null && (filter === 'all' || !['improving', 'declining', 'stable', 'new'].includes(filter));

  let content;
  if (answer === undefined && groups.error) content = <ErrorState text="Failed to load flaky tests" />;
  else if (answer === undefined) content = <LoadingState text="Loading flaky tests..." />;
  else if (nothingStored) {
    content = (
      <EmptyState title="No flaky tests found!">
        <Text c="dimmed">Flaky tests are tests that have multiple runs with different outcomes: they pass in some runs and fail in others.</Text>
        {days !== 0 && (
          <Button variant="light" mt="sm" onClick={() => changeDays(0)}>
            None in the last {days} days: show all time
          </Button>
        )}
      </EmptyState>
    );
  } else {
    content = (
      <>
        <FlakyStatCards counts={answer.counts} filter={filter} onSelect={changeFilter} />
        <FlakyToolbar search={searchInput} onSearch={setSearchInput} browser={browser} browsers={answer.browsers} onBrowser={changeBrowser} sort={sort} onSort={changeSort} owner={owner} onOwner={changeOwner} />
        <UnownedLine unowned={answer.counts.unowned} all={answer.counts.all} owner={owner} onShow={() => changeOwner(UNOWNED)} />
        <FlakyFilterStatus filter={filter} shown={answer.total} total={answer.counts.all} onClear={() => changeFilter('all')} />
        <div aria-busy={groups.loading} style={{ opacity: groups.loading ? 0.6 : 1, transition: 'opacity 120ms' }}>
          <FlakyGroupTable
            groups={answer.items}
            expanded={expanded}
            highlighted={highlighted}
            rowRef={(key, element) => {
              if (element) rows.current.set(key, element);
              else rows.current.delete(key);
            }}
            onToggle={toggle}
            onOpen={(group, entry) => {
              setSelection({ group, entry });
              setDialogOpen(true);
            }}
            onTrend={(direction: TrendDirection) => changeFilter(direction)}
            quarantineOf={(group) => quarantine.entryFor(group.test_title, group.test_file)}
          />
        </div>
        <ListPager page={answer.page} pageSize={answer.pageSize} total={answer.total} noun="flaky tests" onPage={changePage} testId="flaky-pager" />
      </>
    );
  }

  return (
    <>
      <PageHeader
        title="Flaky Test Analysis"
        subtitle={
          <span data-testid="flaky-window">
            Tests whose runs pass sometimes and fail other times, grouped by test across browsers: {days === 0 ? 'all time' : `last ${days} days`}
          </span>
        }
        actions={
          <Group gap="sm" align="flex-end" wrap="wrap">
            <BranchPicker value={branch} onChange={changeBranch} />
            <NativeSelect label="Time Range" data={TIME_RANGES} value={String(days)} onChange={(event) => changeDays(Number(event.currentTarget.value))} w={170} />
          </Group>
        }
      />
      {content}
      <FlakyDetailDialog selection={selection} opened={dialogOpen} onClose={() => setDialogOpen(false)} quarantineFor={quarantine.entryFor} />
    </>
  );
}
