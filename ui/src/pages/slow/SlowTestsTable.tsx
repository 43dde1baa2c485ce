import { Badge, Paper, Text, Title, Tooltip } from '@mantine/core';
import type { SlowTest } from '../../../../core/api/analytics.js';
import { BrowserLabel } from '../../components/BrowserLabel.js';
import { DataTable, type DataColumn } from '../../components/DataTable.js';
import { fileName, formatDuration, truncate } from '../../lib/format.js';
import { performanceBadge } from './slow-stats.js';

/** docs/screens.md#display-rules: the test name is cut to 50 characters; the full title is one hover away. */
const TITLE_MAX = 50;

const COLUMNS: DataColumn<SlowTest>[] = [
  {
    key: 'name',
    header: 'Test Name',
    cell: (t) => (
      <Tooltip label={t.test_full_title || t.test_title} multiline maw={480} openDelay={200}>
        <Text size="sm" fw={500} component="span">
          {truncate(t.test_title, TITLE_MAX)}
        </Text>
      </Tooltip>
    ),
  },
  {
    key: 'file',
    header: 'File',
    cell: (t) => (
      <Text size="sm" c="dimmed" title={t.test_file}>
        {fileName(t.test_file)}
      </Text>
    ),
  },
  { key: 'browser', header: 'Browser', cell: (t) => <BrowserLabel browser={t.browser} /> },
  { key: 'project', header: 'Project', cell: (t) => <Text size="sm">{t.project}</Text> },
  { key: 'avg', header: 'Avg Duration', align: 'right', cell: (t) => formatDuration(t.avg_duration) },
  { key: 'max', header: 'Max Duration', align: 'right', cell: (t) => formatDuration(t.max_duration) },
  {
    key: 'performance',
    header: 'Performance',
    cell: (t) => {
      const badge = performanceBadge(t.avg_duration);
      return (
        <Badge color={badge.color} variant="light" tt="none">
          {badge.label}
        </Badge>
      );
    },
  },
  { key: 'runs', header: 'Total Runs', align: 'right', cell: (t) => t.total_runs.toLocaleString() },
];

export function SlowTestsTable({ tests }: { tests: readonly SlowTest[] }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Title order={4} mb="sm">
        Slowest Tests
      </Title>
      <DataTable
        columns={COLUMNS}
        rows={tests}
        rowKey={(t) => `${t.test_file}\u0000${t.test_full_title}\u0000${t.browser}\u0000${t.project}`}
        stickyFirstColumn
        minWidth={960}
        striped
        highlightOnHover
        testId="slow-tests-table"
      />
    </Paper>
  );
}
