import { Table, Text } from '@mantine/core';
import type { TrendDirection } from '../../../../core/analytics/formulas.js';
import type { BrowserEntry, FlakyTestGroup } from '../../../../core/api/analytics.js';
import { BrowserLabel } from '../../components/BrowserLabel.js';
import { flakyPassRateColor, fractionPercent, oneDecimal } from '../../lib/format.js';
import { browserTrend, flakyScoreOf } from './flaky-filter.js';
import { TrendBadge } from './TrendBadge.js';

/** One row per browser of an expanded group; a row opens the detail dialog. */
export function BrowserBreakdown({ group, onOpen, onTrend }: { group: FlakyTestGroup; onOpen(entry: BrowserEntry): void; onTrend(direction: TrendDirection): void }) {
  return (
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
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {group.browsers.map((entry) => {
          return (
            <Table.Tr
              key={entry.browser}
              data-testid="browser-row"
              data-browser={entry.browser}
              tabIndex={0}
              aria-label={`Open details for ${entry.browser}`}
              style={{ cursor: 'pointer' }}
              onClick={() => onOpen(entry)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' || event.key === ' ') {
                  event.preventDefault();
                  onOpen(entry);
                }
              }}
            >
              <Table.Td>
                <BrowserLabel browser={entry.browser} />
              </Table.Td>
              <Table.Td>
                <Text size="sm" fw={600} c={flakyPassRateColor(entry.pass_rate)}>
                  {fractionPercent(entry.pass_rate)}
                </Text>
                {entry.passed_on_retry > 0 && (entry.final_pass_rate ?? entry.pass_rate) !== entry.pass_rate && (
                  <Text size="xs" c="dimmed" title={`Pass rate of first attempts; passed on a retry in ${entry.passed_on_retry} runs`} data-testid="browser-final-rate">
                    {fractionPercent(entry.final_pass_rate)} after retries
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{entry.total_runs}</Table.Td>
              <Table.Td>{entry.failed_runs}</Table.Td>
              <Table.Td>{entry.skipped_runs}</Table.Td>
              <Table.Td>{oneDecimal(flakyScoreOf(entry))}</Table.Td>
              <Table.Td>
                <TrendBadge trend={browserTrend(entry)} onClick={onTrend} />
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
