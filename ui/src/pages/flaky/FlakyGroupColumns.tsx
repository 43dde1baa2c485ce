import { Button, Text, Tooltip } from '@mantine/core';
import type { CSSProperties } from 'react';
import type { TrendDirection } from '../../../../core/analytics/formulas.js';
import type { BrowserEntry, FlakyTestGroup } from '../../../../core/api/analytics.js';
import type { QuarantineView } from '../../../../core/api/quarantine.js';
import type { DataColumn } from '../../components/DataTable.js';
import { OwnerList } from '../../components/OwnerList.js';
import { QuarantineBadge } from '../../components/QuarantineBadge.js';
import sticky from '../../components/sticky-column.module.css';
import { fileName, flakyPassRateColor, fractionPercent, oneDecimal, truncate } from '../../lib/format.js';
import { BrowserButtons } from './BrowserButtons.js';
import { ExpandArrow } from './ExpandArrow.js';
import { groupTrend, worstBrowser } from './flaky-filter.js';
import { OpenForBadge } from './OpenForBadge.js';
import { TrendBadge } from './TrendBadge.js';

export const TITLE_TRUNCATION = 60;

export interface GroupActions {
  isExpanded(group: FlakyTestGroup): boolean;
  onOpen(group: FlakyTestGroup, entry: BrowserEntry): void;
  onTrend(direction: TrendDirection): void;
  /** The quarantine entry that covers a group, for its badge. */
  quarantineOf?(group: FlakyTestGroup): QuarantineView | null;
}

/** The wide table's columns: the expand arrow and the name stay in view while the rest scrolls sideways. */
export function groupColumns({ isExpanded, onOpen, onTrend, quarantineOf }: GroupActions): DataColumn<FlakyTestGroup>[] {
  return [
    { key: 'arrow', header: null, headerLabel: 'Expand', width: 32, className: `${sticky.sticky} ${sticky.arrow}`, color: () => 'dimmed', cell: (group) => <ExpandArrow open={isExpanded(group)} /> },
    {
      key: 'name',
      header: 'Test Name',
      className: `${sticky.sticky} ${sticky.afterArrow}`,
      cell: (group) => (
        <>
          <GroupName group={group} quarantine={quarantineOf?.(group) ?? null} />
          <DetailsButton group={group} onOpen={(entry) => onOpen(group, entry)} />
        </>
      ),
    },
    {
      key: 'file',
      header: 'File · Owners',
      cell: (group) => (
        <>
          <Text size="sm" c="dimmed" title={group.test_file} data-testid="group-file">
            {fileName(group.test_file)}
          </Text>
          <OwnerList owners={group.owners} size="xs" />
        </>
      ),
    },
    { key: 'browsers', header: 'Browsers Affected', cell: (group) => <BrowserButtons group={group} onOpen={(entry) => onOpen(group, entry)} /> },
    {
      key: 'pass-rate',
      header: 'Worst Pass Rate',
      cell: (group) => (
        <Text size="sm" fw={600} c={flakyPassRateColor(group.worst_pass_rate)} data-testid="group-pass-rate">
          {fractionPercent(group.worst_pass_rate)}
        </Text>
      ),
    },
    { key: 'trend', header: 'Overall Trend', style: { minWidth: 190 }, cell: (group) => <TrendBadge trend={groupTrend(group)} onClick={onTrend} /> },
    { key: 'runs', header: 'Total Runs', testId: 'group-runs', cell: (group) => group.total_runs_all_browsers },
    { key: 'failed', header: 'Total Failed', testId: 'group-failed', cell: (group) => group.total_failed_all_browsers },
    { key: 'score', header: 'Flaky Score', testId: 'group-score', cell: (group) => oneDecimal(group.highest_flaky_score) },
    { key: 'time-to-fix', header: 'Time to Fix', style: { minWidth: 130, whiteSpace: 'nowrap' }, cell: (group) => <OpenForBadge timeToFix={group.time_to_fix} /> },
  ];
}

/** A row lit by a link that pointed to it, or open with its browsers under it. */
export function groupRowStyle(highlighted: boolean, expanded: boolean): CSSProperties {
  return {
    transition: 'background-color 300ms ease',
    backgroundColor: highlighted ? 'var(--mantine-color-yellow-light)' : expanded ? 'var(--mantine-color-default-hover)' : undefined,
    outline: highlighted ? '2px solid var(--mantine-color-yellow-filled)' : undefined,
    outlineOffset: -2,
  };
}

/** The test's title, cut to fit with the whole of it in a tooltip, and its quarantine badge. */
export function GroupName({ group, quarantine }: { group: FlakyTestGroup; quarantine: QuarantineView | null }) {
  const title = truncate(group.test_title, TITLE_TRUNCATION);
  const titleText = (
    <Text size="sm" fw={500} data-testid="group-title" style={{ overflowWrap: 'anywhere' }}>
      {title}
    </Text>
  );
  return (
    <>
      {title === group.test_title ? (
        titleText
      ) : (
        <Tooltip label={group.test_title} multiline maw={480}>
          {titleText}
        </Tooltip>
      )}
      {quarantine && <QuarantineBadge entry={quarantine} />}
    </>
  );
}

/** Opens the dialog on the group's worst browser (lowest pass rate): the one to look at first. */
export function DetailsButton({ group, onOpen }: { group: FlakyTestGroup; onOpen(entry: BrowserEntry): void }) {
  const worst = worstBrowser(group);
  if (!worst) return null;
  return (
    <Button
      variant="subtle"
      size="compact-xs"
      mt={2}
      ml={-6}
      rightSection={<span aria-hidden="true">›</span>}
      aria-label={`Open details for ${worst.browser}, the worst browser`}
      title={`History, trends and AI analysis on ${worst.browser}, its lowest pass rate`}
      data-testid="group-details"
      onClick={(event) => {
        event.stopPropagation();
        onOpen(worst);
      }}
      onKeyDown={(event) => event.stopPropagation()}
    >
      Details ({worst.browser})
    </Button>
  );
}
