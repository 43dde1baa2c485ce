import { Paper, Table, Text, Title } from '@mantine/core';
import { formatDuration, passRateColor, percent } from '../../lib/format.js';
import { dayLabel, newestFirst, type TrendRow } from './trend-summary.js';
import { readableTextColor } from '../../lib/readable-color.js';

export function DailyBreakdownTable({ rows }: { rows: readonly TrendRow[] }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Title order={4} mb="sm">
        Daily Breakdown
      </Title>
      <Table.ScrollContainer minWidth={640}>
        <Table striped highlightOnHover verticalSpacing="xs" data-testid="daily-breakdown">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Date</Table.Th>
              <Table.Th ta="right">Total Tests</Table.Th>
              <Table.Th ta="right">Passed</Table.Th>
              <Table.Th ta="right">Failed</Table.Th>
              <Table.Th ta="right">Pass Rate</Table.Th>
              <Table.Th ta="right">Avg Duration</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {newestFirst(rows).map((r) => (
              <Table.Tr key={r.date}>
                <Table.Td>{dayLabel(r.date)}</Table.Td>
                <Table.Td ta="right">{r.total_tests.toLocaleString()}</Table.Td>
                <Table.Td ta="right">
                  <Text span size="sm" c="green">
                    {r.passed.toLocaleString()}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">
                  <Text span size="sm" c={r.failed > 0 ? 'red' : undefined}>
                    {r.failed.toLocaleString()}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">
                  {r.passRate === null ? (
                    <Text span size="sm" c="dimmed">
                      —
                    </Text>
                  ) : (
                    <Text span size="sm" fw={600} c={readableTextColor(passRateColor(r.passRate))}>
                      {percent(r.passRate)}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td ta="right">{r.total_tests > 0 ? formatDuration(r.avg_duration) : '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
