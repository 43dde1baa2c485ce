import { Badge, Button, Stack, Table, Text } from '@mantine/core';
import type { RecentUpload } from '../../../../core/api/uploads.js';
import { passRatePercent } from '../../../../core/analytics/formulas.js';
import { BrowserLabel } from '../../components/BrowserLabel.js';
import { formatDateTime, passRateColor, percent } from '../../lib/format.js';
import { uploaderOf } from '../../lib/uploader.js';
import { ReviewStatusBadge } from './ReviewStatusBadge.js';

/** One row of Recent Uploads; the whole row opens the run, the DELETE button does not. */
export function RecentUploadRow({ upload, deleting, onOpen, onDelete }: { upload: RecentUpload; deleting: boolean; onOpen(): void; onDelete(): void }) {
  const rate = passRatePercent(upload.passed_tests, upload.total_tests);
  const uploader = uploaderOf(upload);
  return (
    <Table.Tr
      data-testid="recent-upload"
      data-id={upload.id}
      tabIndex={0}
      style={{ cursor: 'pointer', opacity: deleting ? 0.5 : undefined }}
      onClick={onOpen}
      onKeyDown={(event) => {
        if (event.key === 'Enter' && event.target === event.currentTarget) onOpen();
      }}
    >
      <Table.Td>
        <Stack gap={4} align="flex-start">
          <ReviewStatusBadge status={upload.status} />
          {upload.is_duplicate === 1 && (
            <Badge size="xs" color="orange" variant="outline">
              Duplicate
            </Badge>
          )}
        </Stack>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{formatDateTime(upload.timestamp)}</Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{formatDateTime(upload.execution_time)}</Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm" fw={500}>
          {upload.project || '-'}
        </Text>
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }} data-testid="recent-upload-name">
          {upload.file_path}
        </Text>
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }} data-testid="recent-upload-uploader">
          {uploader ? `by ${uploader}` : 'uploader unknown'}
        </Text>
      </Table.Td>
      <Table.Td>
        <BrowserLabel browser={upload.browser} />
      </Table.Td>
      <Table.Td>
        <Text size="sm">{upload.total_tests.toLocaleString()}</Text>
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }} title="passed / failed / skipped">
          {upload.passed_tests} / {upload.failed_tests} / {upload.skipped_tests}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm" fw={700} c={passRateColor(rate)} data-testid="pass-rate">
          {percent(rate)}
        </Text>
      </Table.Td>
      <Table.Td>
        <GitInfo upload={upload} />
      </Table.Td>
      <Table.Td>
        <Button
          size="xs"
          color="red"
          variant="light"
          loading={deleting}
          aria-label={`Delete run #${upload.id}`}
          onClick={(event) => {
            // The row opens the run; DELETE must not.
            event.stopPropagation();
            onDelete();
          }}
          onKeyDown={(event) => event.stopPropagation()}
        >
          DELETE
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}

/** docs/screens.md#upload: branch, the first 7 characters of the commit, the reviewer and review date. */
function GitInfo({ upload }: { upload: RecentUpload }) {
  const reviewed = upload.status !== 'pending' && (upload.reviewed_by_username || upload.reviewed_at);
  return (
    <Stack gap={2}>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {upload.git_branch || '-'}
      </Text>
      {upload.git_commit && (
        <Text size="xs" ff="monospace" c="dimmed" title={upload.git_commit} data-testid="git-commit">
          {upload.git_commit.slice(0, 7)}
        </Text>
      )}
      {reviewed && (
        <Text size="xs" c="dimmed">
          {upload.reviewed_by_username ? `by ${upload.reviewed_by_username}` : 'reviewed'}
          {upload.reviewed_at ? ` on ${formatDateTime(upload.reviewed_at)}` : ''}
        </Text>
      )}
    </Stack>
  );
}
