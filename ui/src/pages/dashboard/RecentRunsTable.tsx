import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { Link, useNavigate } from 'react-router-dom';
import type { RecentRun } from '../../../../core/api/analytics.js';
import { BuildLink } from '../../components/BuildLink.js';
import { BrowserLabel } from '../../components/BrowserLabel.js';
import { DataTable, type DataColumn } from '../../components/DataTable.js';
import { formatDateTime, formatDuration } from '../../lib/format.js';
import { RecentRunStacked } from './RecentRunStacked.js';
import { ShardList } from './ShardList.js';

const COLUMNS: DataColumn<RecentRun>[] = [
  {
    key: 'date',
    header: 'Date',
    cell: (run) => (
      <Stack gap={2} align="flex-start">
        <Anchor component={Link} to={`/upload/${run.id}`} size="sm">
          {formatDateTime(run.execution_time)}
        </Anchor>
        {(run.build_id || run.build_url) && <BuildLink id={run.build_id} url={run.build_url} size="xs" />}
        {run.shards && <ShardList shards={run.shards} />}
      </Stack>
    ),
  },
  { key: 'browser', header: 'Browser', cell: (run) => <BrowserLabel browser={run.browser} /> },
  {
    key: 'project',
    header: 'Project',
    cell: (run) => (
      <>
        <Text size="sm">{run.project ?? '—'}</Text>
        {run.git_branch && (
          <Text size="xs" c="dimmed" data-testid="run-branch" title={`branch ${run.git_branch}`}>
            {run.git_branch}
          </Text>
        )}
      </>
    ),
  },
  { key: 'total', header: 'Total', align: 'right', cell: (run) => run.total_tests.toLocaleString() },
  { key: 'passed', header: 'Passed', align: 'right', color: () => 'green', cell: (run) => run.passed_tests.toLocaleString() },
  { key: 'failed', header: 'Failed', align: 'right', color: (run) => (run.failed_tests > 0 ? 'red' : undefined), cell: (run) => run.failed_tests.toLocaleString() },
  { key: 'duration', header: 'Duration', align: 'right', cell: (run) => formatDuration(run.duration_ms) },
];

/**
 * 'Recent Test Runs': each row opens that run's details; the shards of one CI build are one row,
 * each shard linked below its date. On a phone each row stacks its columns.
 */
export function RecentRunsTable({ runs }: { runs: RecentRun[] }) {
  const navigate = useNavigate();
  return (
    <Paper withBorder radius="md" p="md" data-testid="recent-runs">
      <Title order={4} mb="sm">
        Recent Test Runs
      </Title>
      <DataTable
        columns={COLUMNS}
        rows={runs}
        rowKey={(run) => String(run.id)}
        empty={<Text c="dimmed">No test runs found. Upload some test results to get started!</Text>}
        stacked={(run) => <RecentRunStacked run={run} />}
        onRowClick={(run) => navigate(`/upload/${run.id}`)}
        stickyFirstColumn
        minWidth={720}
        highlightOnHover
      />
    </Paper>
  );
}
