import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { DEFAULT_WINDOW_DAYS } from '../../../../core/analytics/formulas.js';
import type { BrowserEntry, FlakyTestGroup } from '../../../../core/api/analytics.js';
import { parseDays } from '../../lib/time-range.js';
import type { DialogSelection } from './FlakyDetailDialog.js';
import { groupKey, parseFilter } from './flaky-filter.js';
import type { FlakyList } from './use-flaky-list.js';

/** The deep link's highlight and dialog delay (docs/screens.md#flaky-test-analysis). */
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

/**
 * The address of the flaky screen: its query (days, severity, test, file, browser) sets the
 * list's filters; a linked test is opened, scrolled to, highlighted for a moment and, with its
 * browser, shown in the dialog. Once the list has answered, the address goes back to
 * /flaky-tests, keeping only the branch filter.
 */
export function useFlakyDeepLink(list: FlakyList, openDialog: (selection: DialogSelection) => void) {
  const location = useLocation();
  const navigate = useNavigate();
  const { answer, groups, branch } = list;
  const [highlighted, setHighlighted] = useState<string | null>(null);
  const rows = useRef(new Map<string, HTMLTableRowElement>());

  // The query is read whenever the address brings one; it is applied during render so the first
  // paint already shows the filtered table.
  const [seenSearch, setSeenSearch] = useState<string | null>(null);
  const [deepLink, setDeepLink] = useState<DeepLink | null>(null);
  const [target, setTarget] = useState<DeepLinkTarget | null>(null);
  if (location.search !== seenSearch) {
    setSeenSearch(location.search);
    const params = new URLSearchParams(location.search);
    if (params.has('days')) list.showDays(parseDays(params.get('days'), DEFAULT_WINDOW_DAYS));
    if (params.has('severity')) list.showSeverity(parseFilter(params.get('severity')));
    const test = params.get('test');
    const file = params.get('file');
    if (test && file) {
      // The server finds the test: it is searched for by its title, which the box then shows.
      setDeepLink({ test, file, browser: params.get('browser') });
      list.searchNow(test);
    }
  }
  if (deepLink && answer && !groups.loading) {
    setDeepLink(null);
    const group = answer.items.find((g) => g.test_title === deepLink.test && g.test_file === deepLink.file);
    if (group) {
      const key = groupKey(group);
      list.expandOnly(key);
      setHighlighted(key);
      setTarget({ key, group, entry: group.browsers.find((b) => b.browser === deepLink.browser) ?? null });
    }
  }

  // The newest opener, so the timer below does not restart when the page renders.
  const open = useRef(openDialog);
  useEffect(() => {
    open.current = openDialog;
  });
  useEffect(() => {
    if (!target) return;
    rows.current.get(target.key)?.scrollIntoView({ block: 'center', behavior: 'smooth' });
    const unhighlight = setTimeout(() => setHighlighted((current) => (current === target.key ? null : current)), HIGHLIGHT_MS);
    const entry = target.entry;
    const later = entry ? setTimeout(() => open.current({ group: target.group, entry }), DIALOG_DELAY_MS) : undefined;
    return () => {
      clearTimeout(unhighlight);
      clearTimeout(later);
    };
  }, [target]);

  const settled = !groups.loading && (groups.data !== undefined || groups.error !== null);
  const kept = branch ? `?${new URLSearchParams({ branch })}` : '';
  useEffect(() => {
    if (settled && location.search !== kept) navigate(`/flaky-tests${kept}`, { replace: true });
  }, [settled, location.search, kept, navigate]);

  return {
    highlighted,
    rowRef: (key: string, element: HTMLTableRowElement | null) => {
      if (element) rows.current.set(key, element);
      else rows.current.delete(key);
    },
  };
}
