import { Badge, Paper, Text, Title } from '@mantine/core';
import { BrowserLabel } from '../../components/BrowserLabel.js';
import { DataTable, type DataColumn } from '../../components/DataTable.js';
import { formatDuration, passRateColor, percent } from '../../lib/format.js';
import { HEALTH_COLORS, healthLabel, type BrowserRow } from './browser-rows.js';
import { readableTextColor } from '../../lib/readable-color.js';

const COLUMNS: DataColumn<BrowserRow>[] = [
  { key: 'browser', header: 'Browser', cell: (r) => <BrowserLabel browser={r.browser} /> },
  { key: 'passed', header: 'Passed', align: 'right', cell: (r) => r.passed.toLocaleString() },
  {
    key: 'failed',
    header: 'Failed',
    align: 'right',
    cell: (r) => (
      <Text span size="sm" c={r.failingMoreThanPassing ? 'red' : undefined} fw={r.failingMoreThanPassing ? 700 : undefined}>
        {r.failed.toLocaleString()}
      </Text>
    ),
  },
  { key: 'skipped', header: 'Skipped', align: 'right', cell: (r) => r.skipped.toLocaleString() },
  {
    key: 'rate',
    header: 'Pass Rate',
    align: 'right',
    cell: (r) => (
      <Text span size="sm" fw={600} c={readableTextColor(passRateColor(r.passRate))}>
        {percent(r.passRate)}
      </Text>
    ),
  },
  { key: 'avg', header: 'Avg Duration', align: 'right', cell: (r) => formatDuration(r.avg_duration) },
  {
    key: 'health',
    header: 'Health',
    cell: (r) => (
      <Badge color={HEALTH_COLORS[r.health]} variant="light" tt="none">
        {healthLabel(r.health)}
      </Badge>
    ),
  },
];

export function BrowserTable({ rows }: { rows: readonly BrowserRow[] }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Title order={4} mb="sm">
        Browser Comparison
      </Title>
      <DataTable columns={COLUMNS} rows={rows} rowKey={(r) => r.browser} minWidth={720} striped highlightOnHover testId="browser-table" />
    </Paper>
  );
}
