import { Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { UploadDetailResponse } from '../../../../core/api/uploads.js';
import { BrowserLabel } from '../../components/BrowserLabel.js';
import { BuildLink } from '../../components/BuildLink.js';
import { formatDateTime, formatDuration } from '../../lib/format.js';
import { ReviewStatusBadge } from '../upload/ReviewStatusBadge.js';

/** docs/screens.md#run-details: execution time, file, browser, project, branch, commit (8 characters), total duration; and the review. */
export function RunMetadata({ detail }: { detail: UploadDetailResponse }) {
  const { upload, stats } = detail;
  return (
    <Paper withBorder p="md" radius="md" data-testid="run-metadata">
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md" verticalSpacing="md">
        <Item label="Execution Time">{formatDateTime(upload.execution_time)}</Item>
        <Item label="File Name">
          <Text size="sm" fw={500} style={{ wordBreak: 'break-all' }}>
            {upload.file_path}
          </Text>
        </Item>
        <Item label="Browser">
          <Group gap={6}>
            <BrowserLabel browser={upload.browser} />
            {upload.browser.includes(', ') && (
              <Text size="xs" c="dimmed">
                {upload.browser}
              </Text>
            )}
          </Group>
        </Item>
        <Item label="Project">{upload.project || '-'}</Item>
        <Item label="Branch">{upload.git_branch || '-'}</Item>
        <Item label="Commit">
          {upload.git_commit ? (
            <Text size="sm" ff="monospace" title={upload.git_commit}>
              {upload.git_commit.slice(0, 8)}
            </Text>
          ) : (
            '-'
          )}
        </Item>
        {(upload.build_id || upload.build_url) && (
          <Item label="CI Build">
            <BuildLink id={upload.build_id} url={upload.build_url} />
          </Item>
        )}
        {upload.shard_total !== null && upload.shard_total > 1 && <Item label="Shard">{`${upload.shard_current ?? '?'} of ${upload.shard_total}`}</Item>}
        <Item label="Total Duration">{formatDuration(stats.duration_ms)}</Item>
        <Item label="Review">
          <Stack gap={2} align="flex-start">
            <ReviewStatusBadge status={upload.status} />
            {upload.status !== 'pending' && (upload.reviewed_by_username || upload.reviewed_at) && (
              <Text size="xs" c="dimmed" data-testid="reviewer">
                {upload.reviewed_by_username ? `by ${upload.reviewed_by_username}` : 'reviewed'}
                {upload.reviewed_at ? ` on ${formatDateTime(upload.reviewed_at)}` : ''}
              </Text>
            )}
          </Stack>
        </Item>
      </SimpleGrid>
    </Paper>
  );
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2} data-testid={`meta-${label.toLowerCase().replace(/ /g, '-')}`}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      {typeof children === 'string' ? <Text size="sm">{children}</Text> : children}
    </Stack>
  );
}
