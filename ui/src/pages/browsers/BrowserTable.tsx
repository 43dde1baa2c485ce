import { Badge, Paper, Table, Text, Title } from '@mantine/core';
import { BrowserLabel } from '../../components/BrowserLabel.js';
import { formatDuration, passRateColor, percent } from '../../lib/format.js';
import { HEALTH_COLORS, healthLabel, type BrowserRow } from './browser-rows.js';
import { readableTextColor } from '../../lib/readable-color.js';

export function BrowserTable({ rows }: { rows: readonly BrowserRow[] }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Title order={4} mb="sm">
        Browser Comparison
      </Title>
      <Table.ScrollContainer minWidth={720}>
        <Table striped highlightOnHover verticalSpacing="xs" data-testid="browser-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Browser</Table.Th>
              <Table.Th ta="right">Passed</Table.Th>
              <Table.Th ta="right">Failed</Table.Th>
              <Table.Th ta="right">Skipped</Table.Th>
              <Table.Th ta="right">Pass Rate</Table.Th>
              <Table.Th ta="right">Avg Duration</Table.Th>
              <Table.Th>Health</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.browser}>
                <Table.Td>
                  <BrowserLabel browser={r.browser} />
                </Table.Td>
                <Table.Td ta="right">{r.passed.toLocaleString()}</Table.Td>
                <Table.Td ta="right">
                  <Text span size="sm" c={r.failingMoreThanPassing ? 'red' : undefined} fw={r.failingMoreThanPassing ? 700 : undefined}>
                    {r.failed.toLocaleString()}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">{r.skipped.toLocaleString()}</Table.Td>
                <Table.Td ta="right">
                  <Text span size="sm" fw={600} c={readableTextColor(passRateColor(r.passRate))}>
                    {percent(r.passRate)}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">{formatDuration(r.avg_duration)}</Table.Td>
                <Table.Td>
                  <Badge color={HEALTH_COLORS[r.health]} variant="light" tt="none">
                    {healthLabel(r.health)}
                  </Badge>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
