import { Anchor, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { RecentRun } from '../../../../core/api/analytics.js';
import { BrowserLabel } from '../../components/BrowserLabel.js';
import { BuildLink } from '../../components/BuildLink.js';
import { RowFigures } from '../../components/RowFigures.js';
import { formatDateTime, formatDuration } from '../../lib/format.js';
import { ShardList } from './ShardList.js';

/** A recent run on a phone: date, browser, project and branch on top, the four figures under their column names. */
export function RecentRunStacked({ run }: { run: RecentRun }) {
  return (
    <Stack gap={6}>
      <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
        <Stack gap={2} align="flex-start" style={{ minWidth: 0 }}>
          <Anchor component={Link} to={`/upload/${run.id}`} size="sm" fw={500}>
            {formatDateTime(run.execution_time)}
          </Anchor>
          {(run.build_id || run.build_url) && <BuildLink id={run.build_id} url={run.build_url} size="xs" />}
        </Stack>
        <BrowserLabel browser={run.browser} />
      </Group>
      {(run.project || run.git_branch) && (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {[run.project, run.git_branch && `branch ${run.git_branch}`].filter(Boolean).join(' · ')}
        </Text>
      )}
      <RowFigures
        figures={[
          { label: 'Total', value: run.total_tests.toLocaleString() },
          { label: 'Passed', value: <Text span inherit c="green">{run.passed_tests.toLocaleString()}</Text> },
          { label: 'Failed', value: <Text span inherit c={run.failed_tests > 0 ? 'red' : undefined}>{run.failed_tests.toLocaleString()}</Text> },
          { label: 'Duration', value: formatDuration(run.duration_ms) },
        ]}
      />
      {run.shards && <ShardList shards={run.shards} />}
    </Stack>
  );
}
