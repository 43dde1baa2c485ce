import { Anchor, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useNavigate } from 'react-router-dom';
import type { RecentRun } from '../../../../core/api/analytics.js';
import { BuildLink } from '../../components/BuildLink.js';
import { BrowserLabel } from '../../components/BrowserLabel.js';
import { formatDateTime, formatDuration } from '../../lib/format.js';
import sticky from '../../components/sticky-column.module.css';
import { usePhone } from '../../lib/use-phone.js';
import { RecentRunStackedRow } from './RecentRunStackedRow.js';
import { ShardList } from './ShardList.js';

/**
 * 'Recent Test Runs': each row opens that run's details; the shards of one CI build are one row,
 * each shard linked below its date. On a phone each row stacks its columns.
 */
export function RecentRunsTable({ runs }: { runs: RecentRun[] }) {
  const navigate = useNavigate();
  const phone = usePhone();
  return (
    <Paper withBorder radius="md" p="md" data-testid="recent-runs">
      <Title order={4} mb="sm">
        Recent Test Runs
      </Title>
      {runs.length === 0 ? (
        <Text c="dimmed">No test runs found. Upload some test results to get started!</Text>
      ) : phone ? (
        <Table highlightOnHover verticalSpacing="xs" data-layout="stacked">
          <Table.Tbody>
            {runs.map((run) => (
              <RecentRunStackedRow key={run.id} run={run} onOpen={() => navigate(`/upload/${run.id}`)} />
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table highlightOnHover verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th className={sticky.sticky}>Date</Table.Th>
                <Table.Th>Browser</Table.Th>
                <Table.Th>Project</Table.Th>
                <Table.Th ta="right">Total</Table.Th>
                <Table.Th ta="right">Passed</Table.Th>
                <Table.Th ta="right">Failed</Table.Th>
                <Table.Th ta="right">Duration</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {runs.map((run) => (
                <Table.Tr key={run.id} style={{ cursor: 'pointer' }} onClick={() => navigate(`/upload/${run.id}`)}>
                  <Table.Td className={sticky.sticky}>
                    <Stack gap={2} align="flex-start">
                      <Anchor component={Link} to={`/upload/${run.id}`} size="sm" onClick={(event) => event.stopPropagation()}>
                        {formatDateTime(run.execution_time)}
                      </Anchor>
                      {(run.build_id || run.build_url) && <BuildLink id={run.build_id} url={run.build_url} size="xs" />}
                      {run.shards && <ShardList shards={run.shards} />}
                    </Stack>
                  </Table.Td>
                  <Table.Td>
                    <BrowserLabel browser={run.browser} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{run.project ?? '—'}</Text>
                    {run.git_branch && (
                      <Text size="xs" c="dimmed" data-testid="run-branch" title={`branch ${run.git_branch}`}>
                        {run.git_branch}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td ta="right">{run.total_tests.toLocaleString()}</Table.Td>
                  <Table.Td ta="right" c="green">
                    {run.passed_tests.toLocaleString()}
                  </Table.Td>
                  <Table.Td ta="right" c={run.failed_tests > 0 ? 'red' : undefined}>
                    {run.failed_tests.toLocaleString()}
                  </Table.Td>
                  <Table.Td ta="right">{formatDuration(run.duration_ms)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}
