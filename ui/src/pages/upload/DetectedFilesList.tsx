import { CloseButton, Group, Loader, Paper, Text, Title } from '@mantine/core';
import { BrowserLabel } from '../../components/BrowserLabel.js';
import { DataTable, type DataColumn } from '../../components/DataTable.js';
import { isMultiBrowser } from '../../lib/format.js';
import type { DetectedFile } from './use-report-upload.js';

/** docs/screens.md#upload: file name, browser, test count, passed/failed, and a way to take a file out. */
export function DetectedFilesList({ files, onRemove, disabled }: { files: DetectedFile[]; onRemove(key: string): void; disabled?: boolean }) {
  if (files.length === 0) return null;
  const columns: DataColumn<DetectedFile>[] = [
    {
      key: 'file',
      header: 'File',
      cell: (entry) => (
        <Text size="sm" fw={500} style={{ wordBreak: 'break-all' }}>
          {entry.file.name}
        </Text>
      ),
    },
    // Until a file is read, or when it cannot be, one message fills the three figure columns.
    { key: 'browser', header: 'Browser', testId: 'file-browser', colSpan: (entry) => (entry.analysis?.kind === 'report' ? 1 : 3), cell: (entry) => <BrowserOrMessage entry={entry} /> },
    { key: 'tests', header: 'Tests', testId: 'file-tests', cell: (entry) => (entry.analysis?.kind === 'report' ? entry.analysis.tests.toLocaleString() : null) },
    { key: 'counts', header: 'Passed / Failed', testId: 'file-counts', cell: (entry) => (entry.analysis?.kind === 'report' ? <Counts passed={entry.analysis.passed} failed={entry.analysis.failed} /> : null) },
    { key: 'remove', header: '', width: 40, cell: (entry) => <CloseButton aria-label={`Remove ${entry.file.name}`} disabled={disabled} onClick={() => onRemove(entry.key)} /> },
  ];
  return (
    <Paper withBorder p="md" radius="md" data-testid="detected-files">
      <Title order={4} mb="sm">
        Detected Files
      </Title>
      <DataTable
        columns={columns}
        rows={files}
        rowKey={(entry) => entry.key}
        rowTestId="detected-file"
        minWidth={560}
      />
    </Paper>
  );
}

function BrowserOrMessage({ entry }: { entry: DetectedFile }) {
  const { analysis } = entry;
  if (analysis === null) {
    return (
      <Group gap="xs">
        <Loader size="xs" />
        <Text size="sm" c="dimmed">
          Reading...
        </Text>
      </Group>
    );
  }
  if (analysis.kind === 'invalid') {
    return (
      <Text size="sm" c="red" data-testid="file-error" style={{ wordBreak: 'break-word' }}>
        {analysis.error}
      </Text>
    );
  }
  if (analysis.kind === 'unrecognised') {
    return (
      <Text size="sm" c="orange" data-testid="file-warning" style={{ wordBreak: 'break-word' }}>
        {analysis.problem} (the server checks it on upload)
      </Text>
    );
  }
  return (
    <Group gap={6}>
      <BrowserLabel browser={analysis.browser} />
      {isMultiBrowser(analysis.browser) && (
        <Text size="xs" c="dimmed">
          {analysis.browser}
        </Text>
      )}
    </Group>
  );
}

function Counts({ passed, failed }: { passed: number; failed: number }) {
  return (
    <>
      <Text span size="sm" c="green" fw={600}>
        {passed.toLocaleString()} passed
      </Text>
      <Text span size="sm" c="dimmed">
        {' / '}
      </Text>
      <Text span size="sm" c={failed > 0 ? 'red' : 'dimmed'} fw={600}>
        {failed.toLocaleString()} failed
      </Text>
    </>
  );
}
