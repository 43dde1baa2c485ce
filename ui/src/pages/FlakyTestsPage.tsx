import { Text } from '@mantine/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { TrendDirection } from '../../../core/analytics/formulas.js';
import type { BrowserEntry, FlakyTestGroup } from '../../../core/api/analytics.js';
import { flakyTests, flakyTrendRecords } from '../api/calls.js';
import { PageHeader } from '../components/PageHeader.js';
import { EmptyState, ErrorState, LoadingState } from '../components/PageState.js';
import { onTestDataUpdated } from '../lib/events.js';
import { useApi } from '../lib/use-api.js';
import { FlakyDetailDialog, type DialogSelection } from './flaky/FlakyDetailDialog.js';
import { FlakyFilterStatus } from './flaky/FlakyFilterStatus.js';
import { FlakyGroupTable } from './flaky/FlakyGroupTable.js';
import { FlakyStatCards } from './flaky/FlakyStatCards.js';
import { groupKey, indexTrends, matchesFilter, parseFilter, severityCounts, type FlakyFilter } from './flaky/flaky-filter.js';
import { clearTestDetailsCache } from './flaky/test-details-cache.js';

/** SPEC.md section 9. */
const HIGHLIGHT_MS = 3000;
const DIALOG_DELAY_MS = 500;

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
  const groups = useApi(() => flakyTests(), [version]);
  // Trend records only decorate the table: their failure is logged (by useApi) and ignored.
  const trendRecords = useApi(() => flakyTrendRecords(), [version]);
  const trends = useMemo(() => indexTrends(trendRecords.data ?? []), [trendRecords.data]);

  const [filter, setFilter] = useState<FlakyFilter>('all');
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
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
    if (params.has('severity')) {
      setFilter(parseFilter(params.get('severity')));
      setExpanded(new Set());
    }
    const test = params.get('test');
    const file = params.get('file');
    if (test && file) setDeepLink({ test, file, browser: params.get('browser') });
  }
  if (deepLink && groups.data) {
    setDeepLink(null);
    const group = groups.data.find((g) => g.test_title === deepLink.test && g.test_file === deepLink.file);
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

  // Once the groups are in and the query has done its work, the address goes back to /flaky-tests.
  const settled = groups.data !== undefined || (groups.error !== null && !groups.loading);
  useEffect(() => {
    if (settled && location.search !== '') navigate('/flaky-tests', { replace: true });
  }, [settled, location.search, navigate]);

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
  };
  const toggle = (key: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(key)) next.add(key);
      return next;
    });

  const all = groups.data;
  const shown = useMemo(() => (all ?? []).filter((g) => matchesFilter(g, filter, trends)), [all, filter, trends]);

  let content;
  if (all === undefined && groups.error) content = <ErrorState text="Failed to load flaky tests" />;
  else if (all === undefined) content = <LoadingState text="Loading flaky tests..." />;
  else if (all.length === 0) {
    content = (
      <EmptyState title="No flaky tests found!">
        <Text c="dimmed">Flaky tests are tests that have multiple runs with different outcomes: they pass in some runs and fail in others.</Text>
      </EmptyState>
    );
  } else {
    content = (
      <>
        <FlakyStatCards counts={severityCounts(all)} filter={filter} onSelect={changeFilter} />
        <FlakyFilterStatus filter={filter} shown={shown.length} total={all.length} onClear={() => changeFilter('all')} />
        <FlakyGroupTable
          groups={shown}
          trends={trends}
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
        />
      </>
    );
  }

  return (
    <>
      <PageHeader title="Flaky Test Analysis" subtitle="Tests whose runs pass sometimes and fail other times, grouped by test across browsers" />
      {content}
      <FlakyDetailDialog selection={selection} opened={dialogOpen} onClose={() => setDialogOpen(false)} />
    </>
  );
}
