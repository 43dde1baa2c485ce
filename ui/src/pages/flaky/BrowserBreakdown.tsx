import { Group, Stack, Table, Text } from '@mantine/core';
import type { KeyboardEvent } from 'react';
import type { TrendDirection } from '../../../../core/analytics/formulas.js';
import type { BrowserEntry, FlakyTestGroup } from '../../../../core/api/analytics.js';
import { BrowserLabel } from '../../components/BrowserLabel.js';
import { RowFigures } from '../../components/RowFigures.js';
import { flakyPassRateColor, fractionPercent, oneDecimal } from '../../lib/format.js';
import { browserTrend, flakyScoreOf } from './flaky-filter.js';
import { TrendBadge } from './TrendBadge.js';

interface Props {
  group: FlakyTestGroup;
  onOpen(entry: BrowserEntry): void;
  onTrend(direction: TrendDirection): void;
  /** The phone layout: each browser's figures under their names in one cell. */
  stacked?: boolean;
}

/** One row per browser of an expanded group; a row opens the detail dialog, as its last cell says. */
export function BrowserBreakdown({ group, onOpen, onTrend, stacked = false }: Props) {
  const opener = (entry: BrowserEntry) => ({
    'data-testid': 'browser-row',
    'data-browser': entry.browser,
    tabIndex: 0,
    'aria-label': `Open details for ${entry.browser}`,
    style: { cursor: 'pointer' },
    onClick: () => onOpen(entry),
    onKeyDown: (event: KeyboardEvent) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        onOpen(entry);
      }
    },
  });
  const hint = (
    <Text size="xs" c="dimmed" pt={6} pl={stacked ? 0 : 10} data-testid="browser-rows-hint">
      Open a browser for its run history, daily trend and AI analysis.
    </Text>
  );
  if (stacked) {
    return (
      <>
        {hint}
        <Table withRowBorders verticalSpacing={6} highlightOnHover data-testid="browser-rows" data-layout="stacked">
          <Table.Tbody>
            {group.browsers.map((entry) => (
              <Table.Tr key={entry.browser} {...opener(entry)}>
                <Table.Td px={0}>
                  <Stack gap={4}>
                    <Group justify="space-between" gap="xs" wrap="nowrap">
                      <BrowserLabel browser={entry.browser} />
                      <TrendBadge trend={browserTrend(entry)} onClick={onTrend} />
                      <OpenCue />
                    </Group>
                    <RowFigures
                      figures={[
                        { label: 'Pass Rate', value: <PassRate entry={entry} /> },
                        { label: 'Runs', value: entry.total_runs },
                        { label: 'Failed', value: entry.failed_runs },
                        { label: 'Skipped', value: entry.skipped_runs },
                        { label: 'Score', value: oneDecimal(flakyScoreOf(entry)) },
                      ]}
                    />
                  </Stack>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </>
    );
  }
  return (
    <>
      {hint}
      <Table withRowBorders={false} verticalSpacing={6} highlightOnHover data-testid="browser-rows">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Browser</Table.Th>
            <Table.Th>Pass Rate</Table.Th>
            <Table.Th>Runs</Table.Th>
            <Table.Th>Failed</Table.Th>
            <Table.Th>Skipped</Table.Th>
            <Table.Th>Flaky Score</Table.Th>
            <Table.Th>Trend</Table.Th>
            <Table.Th aria-label="Open" />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {group.browsers.map((entry) => (
            <Table.Tr key={entry.browser} {...opener(entry)}>
              <Table.Td>
                <BrowserLabel browser={entry.browser} />
              </Table.Td>
              <Table.Td>
                <PassRate entry={entry} />
              </Table.Td>
              <Table.Td>{entry.total_runs}</Table.Td>
              <Table.Td>{entry.failed_runs}</Table.Td>
              <Table.Td>{entry.skipped_runs}</Table.Td>
              <Table.Td>{oneDecimal(flakyScoreOf(entry))}</Table.Td>
              <Table.Td>
                <TrendBadge trend={browserTrend(entry)} onClick={onTrend} />
              </Table.Td>
              <Table.Td ta="right" pr="md">
                <OpenCue />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </>
  );
}

function PassRate({ entry }: { entry: BrowserEntry }) {
  return (
    <>
      <Text size="sm" fw={600} c={flakyPassRateColor(entry.pass_rate)}>
        {fractionPercent(entry.pass_rate)}
      </Text>
      {entry.passed_on_retry > 0 && (entry.final_pass_rate ?? entry.pass_rate) !== entry.pass_rate && (
        <Text size="xs" c="dimmed" fw={400} title={`Pass rate of first attempts; passed on a retry in ${entry.passed_on_retry} runs`} data-testid="browser-final-rate">
          {fractionPercent(entry.final_pass_rate)} after retries
        </Text>
      )}
    </>
  );
}

/** What a click on the row does, said on the row: the whole row is the target. */
function OpenCue() {
  return (
    <Text span size="xs" fw={600} c="blue" style={{ whiteSpace: 'nowrap' }} aria-hidden="true">
      Details ›
    </Text>
  );
}
