import { Box, Paper, Text } from '@mantine/core';
import type { TrendDirection } from '../../../../core/analytics/formulas.js';
import type { BrowserEntry, FlakyTestGroup } from '../../../../core/api/analytics.js';
import type { QuarantineView } from '../../../../core/api/quarantine.js';
import { DataTable } from '../../components/DataTable.js';
import { BrowserBreakdown } from './BrowserBreakdown.js';
import { groupKey } from './flaky-filter.js';
import { groupColumns, groupRowStyle } from './FlakyGroupColumns.js';
import { FlakyGroupStackedCell } from './FlakyGroupStackedCell.js';

interface Props {
  groups: readonly FlakyTestGroup[];
  expanded: ReadonlySet<string>;
  highlighted: string | null;
  rowRef(key: string, element: HTMLTableRowElement | null): void;
  onToggle(key: string): void;
  onOpen(group: FlakyTestGroup, entry: BrowserEntry): void;
  onTrend(direction: TrendDirection): void;
  /** The quarantine entry that covers a group, for its badge. */
  quarantineOf?(group: FlakyTestGroup): QuarantineView | null;
}

/**
 * The groups; a click on one shows a sub-row per browser. On a phone each row stacks its
 * columns in one cell, as ten did not fit.
 */
export function FlakyGroupTable({ groups, expanded, highlighted, rowRef, onToggle, onOpen, onTrend, quarantineOf }: Props) {
  const isExpanded = (group: FlakyTestGroup) => expanded.has(groupKey(group));
  const isHighlighted = (group: FlakyTestGroup) => highlighted === groupKey(group);
  return (
    <Paper withBorder radius="md">
      <DataTable<FlakyTestGroup>
        columns={groupColumns({ isExpanded, onOpen, onTrend, quarantineOf })}
        rows={groups}
        rowKey={groupKey}
        testId="flaky-table"
        rowTestId="flaky-group"
        minWidth={1100}
        verticalSpacing="sm"
        highlightOnHover
        onRowClick={(group) => onToggle(groupKey(group))}
        rowExpanded={isExpanded}
        rowRef={(group, element) => rowRef(groupKey(group), element)}
        rowData={(group): Record<`data-${string}`, string> => (isHighlighted(group) ? { 'data-highlighted': 'true' } : {})}
        rowStyle={(group) => groupRowStyle(isHighlighted(group), isExpanded(group))}
        stacked={(group) => <FlakyGroupStackedCell group={group} open={isExpanded(group)} quarantine={quarantineOf?.(group) ?? null} onOpen={(entry) => onOpen(group, entry)} onTrend={onTrend} />}
        expansion={(group, { stacked }) => (
          <Box pl={stacked ? 8 : 40} pr={stacked ? 8 : 0} pb="sm">
            <BrowserBreakdown group={group} onOpen={(entry) => onOpen(group, entry)} onTrend={onTrend} stacked={stacked} />
          </Box>
        )}
        expansionTestId="group-breakdown"
        empty={
          <Text c="dimmed" ta="center" py="md">
            No flaky tests match this filter.
          </Text>
        }
        emptyInTable
      />
    </Paper>
  );
}
