import type { BrowserEntry, FlakyTestGroup } from '../../../../core/api/analytics.js';
import type { QuarantineView } from '../../../../core/api/quarantine.js';
import { UNOWNED } from '../../../../core/owners/test-owners.js';
import { ListPager } from '../../components/ListPager.js';
import { FlakyFilterStatus } from './FlakyFilterStatus.js';
import { FlakyGroupTable } from './FlakyGroupTable.js';
import { FlakyStatCards } from './FlakyStatCards.js';
import { FlakyToolbar } from './FlakyToolbar.js';
import { UnownedLine } from './UnownedLine.js';
import type { FlakyList } from './use-flaky-list.js';

interface Props {
  list: FlakyList;
  highlighted: string | null;
  rowRef(key: string, element: HTMLTableRowElement | null): void;
  onOpen(group: FlakyTestGroup, entry: BrowserEntry): void;
  quarantineOf(group: FlakyTestGroup): QuarantineView | null;
}

/** The cards, toolbar and one page of groups of the flaky screen, faded while the next page loads. */
export function FlakyListContent({ list, highlighted, rowRef, onOpen, quarantineOf }: Props) {
  const { answer, groups } = list;
  if (!answer) return null;
  return (
    <>
      <FlakyStatCards counts={answer.counts} filter={list.filter} onSelect={list.changeFilter} />
      <FlakyToolbar
        search={list.searchInput}
        onSearch={list.setSearchInput}
        browser={list.browser}
        browsers={answer.browsers}
        onBrowser={list.changeBrowser}
        sort={list.sort}
        onSort={list.changeSort}
        owner={list.owner}
        onOwner={list.changeOwner}
      />
      <UnownedLine unowned={answer.counts.unowned} all={answer.counts.all} owner={list.owner} onShow={() => list.changeOwner(UNOWNED)} />
      <FlakyFilterStatus filter={list.filter} shown={answer.total} total={answer.counts.all} onClear={() => list.changeFilter('all')} />
      <div aria-busy={groups.loading} style={{ opacity: groups.loading ? 0.6 : 1, transition: 'opacity 120ms' }}>
        <FlakyGroupTable
          groups={answer.items}
          expanded={list.expanded}
          highlighted={highlighted}
          rowRef={rowRef}
          onToggle={list.toggle}
          onOpen={onOpen}
          onTrend={(direction) => list.changeFilter(direction)}
          quarantineOf={quarantineOf}
        />
      </div>
      <ListPager page={answer.page} pageSize={answer.pageSize} total={answer.total} noun="flaky tests" onPage={list.changePage} testId="flaky-pager" />
    </>
  );
}
