import { Paper, Text, Title } from '@mantine/core';
import { DataTable, type DataColumn } from '../../components/DataTable.js';
import { formatDuration, passRateColor, percent } from '../../lib/format.js';
import { dayLabel, newestFirst, type TrendRow } from './trend-summary.js';
import { readableTextColor } from '../../lib/readable-color.js';

const COLUMNS: DataColumn<TrendRow>[] = [
  { key: 'date', header: 'Date', cell: (r) => dayLabel(r.date) },
  { key: 'total', header: 'Total Tests', align: 'right', cell: (r) => r.total_tests.toLocaleString() },
  {
    key: 'passed',
    header: 'Passed',
    align: 'right',
    cell: (r) => (
      <Text span size="sm" c="green">
        {r.passed.toLocaleString()}
      </Text>
    ),
  },
  {
    key: 'failed',
    header: 'Failed',
    align: 'right',
    cell: (r) => (
      <Text span size="sm" c={r.failed > 0 ? 'red' : undefined}>
        {r.failed.toLocaleString()}
      </Text>
    ),
  },
  {
    key: 'rate',
    header: 'Pass Rate',
    align: 'right',
    cell: (r) =>
      r.passRate === null ? (
        <Text span size="sm" c="dimmed">
          —
        </Text>
      ) : (
        <Text span size="sm" fw={600} c={readableTextColor(passRateColor(r.passRate))}>
          {percent(r.passRate)}
        </Text>
      ),
  },
  { key: 'avg', header: 'Avg Duration', align: 'right', cell: (r) => (r.total_tests > 0 ? formatDuration(r.avg_duration) : '—') },
];

export function DailyBreakdownTable({ rows }: { rows: readonly TrendRow[] }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Title order={4} mb="sm">
        Daily Breakdown
      </Title>
      <DataTable columns={COLUMNS} rows={newestFirst(rows)} rowKey={(r) => r.date} minWidth={640} striped highlightOnHover testId="daily-breakdown" />
    </Paper>
  );
}
