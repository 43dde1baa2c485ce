import { Badge, Button, Stack, Text } from '@mantine/core';
import type { RecentUpload } from '../../../../core/api/uploads.js';
import { passRatePercent } from '../../../../core/analytics/formulas.js';
import { BrowserLabel } from '../../components/BrowserLabel.js';
import { type DataColumn } from '../../components/DataTable.js';
import { formatDateTime, passRateColor, percent } from '../../lib/format.js';
import { uploaderOf } from '../../lib/uploader.js';
import { ReviewStatusBadge } from './ReviewStatusBadge.js';

/** The columns of Recent Uploads; the whole row opens the run, the DELETE button does not. */
export function recentUploadColumns({ deleting, onDelete }: { deleting: number | null; onDelete(upload: RecentUpload): void }): DataColumn<RecentUpload>[] {
  return [
    // Badges truncate in a squeezed column, and table cells ignore min-width: a width keeps them whole.
    {
      key: 'status',
      header: 'Status',
      width: 120,
      cell: (upload) => (
        <Stack gap={4} align="flex-start">
          <ReviewStatusBadge status={upload.status} />
          {upload.is_duplicate === 1 && (
            <Badge size="xs" color="orange" variant="outline">
              Duplicate
            </Badge>
          )}
        </Stack>
      ),
    },
    { key: 'uploaded', header: 'Upload Date', width: 130, cell: (upload) => <Text size="sm">{formatDateTime(upload.timestamp)}</Text> },
    { key: 'executed', header: 'Test Execution', width: 130, cell: (upload) => <Text size="sm">{formatDateTime(upload.execution_time)}</Text> },
    { key: 'project', header: 'Project', cell: (upload) => <ProjectCell upload={upload} /> },
    { key: 'browser', header: 'Browser', width: 150, cell: (upload) => <BrowserLabel browser={upload.browser} /> },
    {
      key: 'tests',
      header: 'Tests',
      cell: (upload) => (
        <>
          <Text size="sm">{upload.total_tests.toLocaleString()}</Text>
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }} title="passed / failed / skipped">
            {upload.passed_tests} / {upload.failed_tests} / {upload.skipped_tests}
          </Text>
        </>
      ),
    },
    {
      key: 'rate',
      header: <span style={{ whiteSpace: 'nowrap' }}>Pass Rate</span>,
      cell: (upload) => {
        const rate = passRatePercent(upload.passed_tests, upload.total_tests);
        return (
          <Text size="sm" fw={700} c={passRateColor(rate)} data-testid="pass-rate">
            {percent(rate)}
          </Text>
        );
      },
    },
    { key: 'git', header: 'Git Info', width: 170, cell: (upload) => <GitInfo upload={upload} /> },
    {
      key: 'actions',
      header: 'Actions',
      cell: (upload) => (
        <Button size="xs" color="red" variant="light" loading={deleting === upload.id} aria-label={`Delete run #${upload.id}`} onClick={() => onDelete(upload)}>
          DELETE
        </Button>
      ),
    },
  ];
}

function ProjectCell({ upload }: { upload: RecentUpload }) {
  const uploader = uploaderOf(upload);
  return (
    <>
      <Text size="sm" fw={500}>
        {upload.project || '-'}
      </Text>
      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }} data-testid="recent-upload-name">
        {upload.file_path}
      </Text>
      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }} data-testid="recent-upload-uploader">
        {uploader ? `by ${uploader}` : 'uploader unknown'}
      </Text>
    </>
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
