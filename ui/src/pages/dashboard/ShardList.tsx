import { Anchor, Group, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { RunShard } from '../../../../core/api/analytics.js';
import { formatDuration } from '../../lib/format.js';

/** Shard k/n of the build with its own counts, each opening that shard's run. */
export function ShardList({ shards }: { shards: RunShard[] }) {
  return (
    <Group gap={4} wrap="wrap" data-testid="run-shards">
      <Text size="xs" c="dimmed">
        {shards.length} {shards.length === 1 ? 'shard' : 'shards'}:
      </Text>
      {shards.map((shard) => (
        <Anchor
          key={shard.id}
          component={Link}
          to={`/upload/${shard.id}`}
          size="xs"
          onClick={(event) => event.stopPropagation()}
          title={`${shard.total_tests} tests, ${shard.passed_tests} passed, ${shard.failed_tests} failed, ${shard.skipped_tests} skipped, ${formatDuration(shard.duration_ms)}`}
        >
          {shard.shard_current ?? '?'}/{shard.shard_total ?? '?'} ({shard.passed_tests}✓ {shard.failed_tests}✗)
        </Anchor>
      ))}
    </Group>
  );
}
