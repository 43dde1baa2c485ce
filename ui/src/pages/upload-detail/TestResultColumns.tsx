import { Group, Stack, Text } from '@mantine/core';
import type { TestResultRow } from '../../../../core/api/uploads.js';
import { BrowserLabel } from '../../components/BrowserLabel.js';
import { type DataColumn } from '../../components/DataTable.js';
import { EvidenceButton } from '../../components/evidence/EvidenceButton.js';
import { formatDuration } from '../../lib/format.js';
import { durationColor } from './duration-color.js';
import { TestStatusBadge } from './TestStatusBadge.js';
import { firstErrorLine } from '../../../../core/errors/first-line.js';

/** The columns of one test of the run; report text is rendered as text only. */
export const TEST_RESULT_COLUMNS: DataColumn<TestResultRow>[] = [
  { key: 'status', header: 'Status', width: 110, cell: (row) => <TestStatusBadge status={row.status} /> },
  {
    key: 'name',
    header: 'Test Name',
    cell: (row) => (
      <Stack gap={2}>
        <Text size="sm" fw={500} style={{ wordBreak: 'break-word' }} data-testid="test-name">
          {row.test_title}
        </Text>
        <Group gap={6}>
          <BrowserLabel browser={row.browser} />
          {row.retry_count > 0 && (
            <Text size="xs" c="orange" fw={600}>
              Retried {row.retry_count} time(s)
            </Text>
          )}
          <EvidenceButton title={row.test_title} attempts={row.attempts} resultId={row.id} />
        </Group>
      </Stack>
    ),
  },
  {
    key: 'file',
    header: 'File',
    cell: (row) => (
      <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
        {row.test_file}
      </Text>
    ),
  },
  { key: 'duration', header: 'Duration', width: 100, cell: (row) => <Duration ms={row.duration_ms} /> },
  { key: 'error', header: 'Error', maxWidth: 420, cell: (row) => <FirstErrorLine message={row.error_message} /> },
];

function Duration({ ms }: { ms: number }) {
  const color = durationColor(ms);
  return (
    <Text size="sm" c={color} fw={color ? 700 : undefined} data-testid="test-duration" data-level={color ?? 'ok'}>
      {formatDuration(ms)}
    </Text>
  );
}

function FirstErrorLine({ message }: { message: string | null }) {
  const error = firstErrorLine(message);
  if (!error) return null;
  return (
    <Text size="xs" c="red" ff="monospace" lineClamp={2} title={error} style={{ wordBreak: 'break-word' }}>
      {error}
    </Text>
  );
}
