import { Button, Table, Text, Tooltip } from '@mantine/core';
import type { TrendDirection } from '../../../../core/analytics/formulas.js';
import type { BrowserEntry, FlakyTestGroup } from '../../../../core/api/analytics.js';
import { fileName, flakyPassRateColor, fractionPercent, oneDecimal, truncate } from '../../lib/format.js';
import { BrowserBreakdown } from './BrowserBreakdown.js';
import { BrowserButtons } from './BrowserButtons.js';
import { ExpandArrow } from './ExpandArrow.js';
import { FlakyGroupStackedCell } from './FlakyGroupStackedCell.js';
import { groupTrend, worstBrowser } from './flaky-filter.js';
import { TrendBadge } from './TrendBadge.js';
import { OpenForBadge } from './OpenForBadge.js';
import { OwnerList } from '../../components/OwnerList.js';
import type { QuarantineView } from '../../../../core/api/quarantine.js';
import { QuarantineBadge } from '../../components/QuarantineBadge.js';
import sticky from '../../components/sticky-column.module.css';

export const GROUP_COLUMNS = 10;
/** On a phone: the arrow and one cell that stacks the rest. */
export const STACKED_COLUMNS = 2;
export const TITLE_TRUNCATION = 60;

interface Props {
  group: FlakyTestGroup;
  expanded: boolean;
  highlighted: boolean;
  rowRef(element: HTMLTableRowElement | null): void;
  onToggle(): void;
  onOpen(entry: BrowserEntry): void;
  onTrend(direction: TrendDirection): void;
  quarantine?: QuarantineView | null;
  /** The phone layout: the figures stacked in one cell under the name. */
  stacked?: boolean;
}

/**
 * A test group; clicking it shows one sub-row per browser. Its Details button opens the dialog
 * on the worst browser, and each browser badge on its own, without opening the group first.
 */
export function FlakyGroupRow({ group, expanded, highlighted, rowRef, onToggle, onOpen, onTrend, quarantine, stacked = false }: Props) {
  const title = truncate(group.test_title, TITLE_TRUNCATION);
  const titleText = (
    <Text size="sm" fw={500} data-testid="group-title" style={{ overflowWrap: 'anywhere' }}>
      {title}
    </Text>
  );
  const name = (
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
  const details = <DetailsButton group={group} onOpen={onOpen} />;
  return (
    <>
      <Table.Tr
        ref={rowRef}
        data-testid="flaky-group"
        data-highlighted={highlighted || undefined}
        aria-expanded={expanded}
        tabIndex={0}
        onClick={onToggle}
        onKeyDown={(event) => {
          if (event.key === 'Enter' || event.key === ' ') {
            event.preventDefault();
            onToggle();
          }
        }}
        style={{
          cursor: 'pointer',
          transition: 'background-color 300ms ease',
          backgroundColor: highlighted ? 'var(--mantine-color-yellow-light)' : expanded ? 'var(--mantine-color-default-hover)' : undefined,
          outline: highlighted ? '2px solid var(--mantine-color-yellow-filled)' : undefined,
          outlineOffset: -2,
        }}
      >
        <Table.Td w={32} c="dimmed" className={`${sticky.sticky} ${sticky.arrow}`}>
          <ExpandArrow open={expanded} />
        </Table.Td>
        {stacked ? (
          <FlakyGroupStackedCell group={group} name={name} details={details} onOpen={onOpen} onTrend={onTrend} />
        ) : (
          <>
            <Table.Td className={`${sticky.sticky} ${sticky.afterArrow}`}>
              {name}
              {details}
            </Table.Td>
            <Table.Td>
              <Text size="sm" c="dimmed" title={group.test_file} data-testid="group-file">
                {fileName(group.test_file)}
              </Text>
              <OwnerList owners={group.owners} size="xs" />
            </Table.Td>
            <Table.Td>
              <BrowserButtons group={group} onOpen={onOpen} />
            </Table.Td>
            <Table.Td>
              <Text size="sm" fw={600} c={flakyPassRateColor(group.worst_pass_rate)} data-testid="group-pass-rate">
                {fractionPercent(group.worst_pass_rate)}
              </Text>
            </Table.Td>
            <Table.Td miw={190}>
              <TrendBadge trend={groupTrend(group)} onClick={onTrend} />
            </Table.Td>
            <Table.Td data-testid="group-runs">{group.total_runs_all_browsers}</Table.Td>
            <Table.Td data-testid="group-failed">{group.total_failed_all_browsers}</Table.Td>
            <Table.Td data-testid="group-score">{oneDecimal(group.highest_flaky_score)}</Table.Td>
            <Table.Td miw={130} style={{ whiteSpace: 'nowrap' }}>
              <OpenForBadge timeToFix={group.time_to_fix} />
            </Table.Td>
          </>
        )}
      </Table.Tr>
      {expanded && (
        <Table.Tr data-testid="group-breakdown">
          <Table.Td colSpan={stacked ? STACKED_COLUMNS : GROUP_COLUMNS} p={0} pl={stacked ? 8 : 40} pr={stacked ? 8 : 0} pb="sm" style={{ backgroundColor: 'var(--mantine-color-default-hover)' }}>
            <BrowserBreakdown group={group} onOpen={onOpen} onTrend={onTrend} stacked={stacked} />
          </Table.Td>
        </Table.Tr>
      )}
    </>
  );
}

/** Opens the dialog on the group's worst browser (lowest pass rate): the one to look at first. */
function DetailsButton({ group, onOpen }: { group: FlakyTestGroup; onOpen(entry: BrowserEntry): void }) {
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
