import { Group, Table, Text, Tooltip } from '@mantine/core';
import type { TrendDirection } from '../../../../core/analytics/formulas.js';
import type { BrowserEntry, FlakyTestGroup } from '../../../../core/api/analytics.js';
import { BrowserLabel } from '../../components/BrowserLabel.js';
import { fileName, flakyPassRateColor, fractionPercent, oneDecimal, truncate } from '../../lib/format.js';
import { BrowserBreakdown } from './BrowserBreakdown.js';
import { ExpandArrow } from './ExpandArrow.js';
import { groupTrend } from './flaky-filter.js';
import { TrendBadge } from './TrendBadge.js';
import type { QuarantineView } from '../../../../core/api/quarantine.js';
import { QuarantineBadge } from '../../components/QuarantineBadge.js';
import sticky from '../../components/sticky-column.module.css';

export const GROUP_COLUMNS = 9;
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
}

/** A test group; clicking it shows one sub-row per browser. */
export function FlakyGroupRow({ group, expanded, highlighted, rowRef, onToggle, onOpen, onTrend, quarantine }: Props) {
  const title = truncate(group.test_title, TITLE_TRUNCATION);
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
        <Table.Td className={`${sticky.sticky} ${sticky.afterArrow}`}>
          {title === group.test_title ? (
            <Text size="sm" fw={500} data-testid="group-title">
              {title}
            </Text>
          ) : (
            <Tooltip label={group.test_title} multiline maw={480}>
              <Text size="sm" fw={500} data-testid="group-title">
                {title}
              </Text>
            </Tooltip>
          )}
          {quarantine && <QuarantineBadge entry={quarantine} />}
        </Table.Td>
        <Table.Td>
          <Text size="sm" c="dimmed" title={group.test_file} data-testid="group-file">
            {fileName(group.test_file)}
          </Text>
        </Table.Td>
        <Table.Td>
          <Group gap={4}>
            {group.browsers.map((b) => (
              <BrowserLabel key={b.browser} browser={b.browser} />
            ))}
          </Group>
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
      </Table.Tr>
      {expanded && (
        <Table.Tr data-testid="group-breakdown">
          <Table.Td colSpan={GROUP_COLUMNS} p={0} pl={40} pb="sm" style={{ backgroundColor: 'var(--mantine-color-default-hover)' }}>
            <BrowserBreakdown group={group} onOpen={onOpen} onTrend={onTrend} />
          </Table.Td>
        </Table.Tr>
      )}
    </>
  );
}
