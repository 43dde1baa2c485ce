import { Group, Stack, Table, Text } from '@mantine/core';
import { memo } from 'react';
import type { TestResultRow } from '../../../../core/api/uploads.js';
import { BrowserLabel } from '../../components/BrowserLabel.js';
import { EvidenceButton } from '../../components/evidence/EvidenceButton.js';
import { formatDuration } from '../../lib/format.js';
import { durationColor } from './duration-color.js';
import { TestStatusBadge } from './TestStatusBadge.js';
import { firstErrorLine } from '../../../../core/errors/first-line.js';

/** One test of the run; report text is rendered as text only. */
export const TestResultRowView = memo(function TestResultRowView({ row }: { row: TestResultRow }) {
  const error = firstErrorLine(row.error_message);
  const color = durationColor(row.duration_ms);
  return (
    <Table.Tr data-testid="test-row">
      <Table.Td>
        <TestStatusBadge status={row.status} />
      </Table.Td>
      <Table.Td>
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
      </Table.Td>
      <Table.Td>
        <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
          {row.test_file}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm" c={color} fw={color ? 700 : undefined} data-testid="test-duration" data-level={color ?? 'ok'}>
          {formatDuration(row.duration_ms)}
        </Text>
      </Table.Td>
      <Table.Td maw={420}>
        {error && (
          <Text size="xs" c="red" ff="monospace" lineClamp={2} title={error} style={{ wordBreak: 'break-word' }}>
            {error}
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
});
