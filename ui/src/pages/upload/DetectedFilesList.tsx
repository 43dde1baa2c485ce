import { CloseButton, Group, Loader, Paper, Table, Text, Title } from '@mantine/core';
import { BrowserLabel } from '../../components/BrowserLabel.js';
import { isMultiBrowser } from '../../lib/format.js';
import type { DetectedFile } from './use-report-upload.js';

/** docs/screens.md#upload: file name, browser, test count, passed/failed, and a way to take a file out. */
export function DetectedFilesList({ files, onRemove, disabled }: { files: DetectedFile[]; onRemove(key: string): void; disabled?: boolean }) {
  if (files.length === 0) return null;
  return (
    <Paper withBorder p="md" radius="md" data-testid="detected-files">
      <Title order={4} mb="sm">
        Detected Files
      </Title>
      <Table.ScrollContainer minWidth={560}>
        <Table verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>File</Table.Th>
              <Table.Th>Browser</Table.Th>
              <Table.Th>Tests</Table.Th>
              <Table.Th>Passed / Failed</Table.Th>
              <Table.Th w={40} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {files.map((entry) => (
              <Table.Tr key={entry.key} data-testid="detected-file">
                <Table.Td>
                  <Text size="sm" fw={500} style={{ wordBreak: 'break-all' }}>
                    {entry.file.name}
                  </Text>
                </Table.Td>
                <DetectedCells entry={entry} />
                <Table.Td>
                  <CloseButton aria-label={`Remove ${entry.file.name}`} disabled={disabled} onClick={() => onRemove(entry.key)} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

function DetectedCells({ entry }: { entry: DetectedFile }) {
  const { analysis } = entry;
  if (analysis === null) {
    return (
      <Table.Td colSpan={3}>
        <Group gap="xs">
          <Loader size="xs" />
          <Text size="sm" c="dimmed">
            Reading...
          </Text>
        </Group>
      </Table.Td>
    );
  }
  if (analysis.kind === 'invalid') {
    return (
      <Table.Td colSpan={3}>
        <Text size="sm" c="red" data-testid="file-error" style={{ wordBreak: 'break-word' }}>
          {analysis.error}
        </Text>
      </Table.Td>
    );
  }
  if (analysis.kind === 'unrecognised') {
    return (
      <Table.Td colSpan={3}>
        <Text size="sm" c="orange" data-testid="file-warning" style={{ wordBreak: 'break-word' }}>
          {analysis.problem} (the server checks it on upload)
        </Text>
      </Table.Td>
    );
  }
  return (
    <>
      <Table.Td data-testid="file-browser">
        <Group gap={6}>
          <BrowserLabel browser={analysis.browser} />
          {isMultiBrowser(analysis.browser) && (
            <Text size="xs" c="dimmed">
              {analysis.browser}
            </Text>
          )}
        </Group>
      </Table.Td>
      <Table.Td data-testid="file-tests">{analysis.tests.toLocaleString()}</Table.Td>
      <Table.Td data-testid="file-counts">
        <Text span size="sm" c="green" fw={600}>
          {analysis.passed.toLocaleString()} passed
        </Text>
        <Text span size="sm" c="dimmed">
          {' / '}
        </Text>
        <Text span size="sm" c={analysis.failed > 0 ? 'red' : 'dimmed'} fw={600}>
          {analysis.failed.toLocaleString()} failed
        </Text>
      </Table.Td>
    </>
  );
}
