import { Paper, Table, Text } from '@mantine/core';
import type { TrendDirection } from '../../../../core/analytics/formulas.js';
import type { BrowserEntry, FlakyTestGroup } from '../../../../core/api/analytics.js';
import type { QuarantineView } from '../../../../core/api/quarantine.js';
import { groupKey } from './flaky-filter.js';
import { FlakyGroupRow, GROUP_COLUMNS, STACKED_COLUMNS } from './FlakyGroupRow.js';
import sticky from '../../components/sticky-column.module.css';
import { usePhone } from '../../lib/use-phone.js';

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

/** The groups; on a phone each row stacks its columns in one cell, as nine did not fit. */
export function FlakyGroupTable({ groups, expanded, highlighted, rowRef, onToggle, onOpen, onTrend, quarantineOf }: Props) {
  const phone = usePhone();
  return (
    <Paper withBorder radius="md">
      <Table.ScrollContainer minWidth={phone ? 0 : 1100}>
        <Table verticalSpacing="sm" highlightOnHover data-testid="flaky-table" data-layout={phone ? 'stacked' : undefined}>
          {phone ? (
            <Table.Thead>
              <Table.Tr>
                <Table.Th aria-label="Expand" w={28} px={6} />
                <Table.Th pl={4}>Test Name</Table.Th>
              </Table.Tr>
            </Table.Thead>
          ) : (
          <Table.Thead>
            <Table.Tr>
              <Table.Th aria-label="Expand" w={32} className={`${sticky.sticky} ${sticky.arrow}`} />
              <Table.Th className={`${sticky.sticky} ${sticky.afterArrow}`}>Test Name</Table.Th>
              <Table.Th>File · Owners</Table.Th>
              <Table.Th>Browsers Affected</Table.Th>
              <Table.Th>Worst Pass Rate</Table.Th>
              <Table.Th>Overall Trend</Table.Th>
              <Table.Th>Total Runs</Table.Th>
              <Table.Th>Total Failed</Table.Th>
              <Table.Th>Flaky Score</Table.Th>
              <Table.Th>Time to Fix</Table.Th>
            </Table.Tr>
          </Table.Thead>
          )}
          <Table.Tbody>
            {groups.map((group) => {
              const key = groupKey(group);
              return (
                <FlakyGroupRow
                  key={key}
                  group={group}
                  expanded={expanded.has(key)}
                  highlighted={highlighted === key}
                  rowRef={(element) => rowRef(key, element)}
                  onToggle={() => onToggle(key)}
                  onOpen={(entry) => onOpen(group, entry)}
                  onTrend={onTrend}
                  quarantine={quarantineOf?.(group) ?? null}
                  stacked={phone}
                />
              );
            })}
            {groups.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={phone ? STACKED_COLUMNS : GROUP_COLUMNS}>
                  <Text c="dimmed" ta="center" py="md">
                    No flaky tests match this filter.
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
