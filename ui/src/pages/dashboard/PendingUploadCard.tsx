import { Badge, Button, Checkbox, Flex, Group, Paper, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { PendingUpload } from '../../../../core/api/uploads.js';
import { BrowserLabel } from '../../components/BrowserLabel.js';
import { formatDateTime } from '../../lib/format.js';
import { uploaderOf } from '../../lib/uploader.js';

/** One upload waiting for review; dimmed with its buttons disabled while its review call runs. */
export function PendingUploadCard({ upload, selected, busy, onSelect, onReview, onView }: {
  upload: PendingUpload;
  selected: boolean;
  busy: boolean;
  onSelect(selected: boolean): void;
  onReview(action: 'approve' | 'reject'): void;
  onView(): void;
}) {
  // Shown whole: a run's name ('shop-web · feature/login · build 812') holds slashes of its own.
  const name = upload.file_path;
  const uploader = uploaderOf(upload);
  const duplicate = upload.is_duplicate === 1;
  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      data-testid="pending-upload"
      data-upload-id={upload.id}
      aria-busy={busy}
      style={{ opacity: busy ? 0.5 : 1, transition: 'opacity 150ms', borderColor: selected ? 'var(--mantine-primary-color-filled)' : undefined }}
    >
      {/* On a phone the buttons go below the details, so neither squeezes the other. */}
      <Flex direction={{ base: 'column', sm: 'row' }} justify="space-between" align={{ base: 'stretch', sm: 'flex-start' }} gap="sm">
        <Group wrap="nowrap" align="flex-start" gap="sm" style={{ minWidth: 0 }}>
          <Checkbox mt={3} checked={selected} disabled={busy} onChange={(event) => onSelect(event.currentTarget.checked)} aria-label={`Select ${name} (upload ${upload.id})`} />
          <Stack gap={4} style={{ minWidth: 0 }}>
            <Group gap="xs" wrap="wrap">
              {/* Breaks a long name where it must, not between every two letters. */}
              <Text fw={600} style={{ overflowWrap: 'anywhere' }} data-testid="pending-upload-name">
                {name}
              </Text>
              {duplicate && (
                <Badge color="orange" variant="light" size="sm">
                  Duplicate
                </Badge>
              )}
            </Group>
            <Group gap="xs" wrap="wrap">
              <BrowserLabel browser={upload.browser} />
              {upload.project && (
                <Text size="sm" c="dimmed">
                  {upload.project}
                </Text>
              )}
              <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }} data-testid="pending-upload-branch">
                {upload.git_branch ? `branch ${upload.git_branch}` : 'no branch'}
              </Text>
            </Group>
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }} data-testid="pending-upload-uploader">
              {uploader ? `Uploaded by ${uploader}` : 'Uploader unknown'} · {formatDateTime(upload.timestamp)}
            </Text>
            <Text size="sm" data-testid="pending-upload-totals">
              {upload.total_tests.toLocaleString()} tests ·{' '}
              <Text span c="green" fw={600}>
                {upload.passed_tests.toLocaleString()} passed
              </Text>{' '}
              ·{' '}
              <Text span c="red" fw={600}>
                {upload.failed_tests.toLocaleString()} failed
              </Text>
            </Text>
          </Stack>
        </Group>
        <Group gap={6} wrap="nowrap" justify="flex-end">
          <Button component={Link} to={`/upload/${upload.id}`} size="xs" variant="default" onClick={onView} disabled={busy}>
            View
          </Button>
          {!duplicate && (
            <Button size="xs" color="green" disabled={busy} onClick={() => onReview('approve')}>
              Keep
            </Button>
          )}
          <Button size="xs" color="red" variant="light" disabled={busy} onClick={() => onReview('reject')}>
            Delete
          </Button>
        </Group>
      </Flex>
    </Paper>
  );
}
