import { Button, Group, Loader, Paper, Progress, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type ChangeEvent } from 'react';
import { DetectedFilesList } from './DetectedFilesList.js';
import { ReportDropZone } from './ReportDropZone.js';
import { UploadResultsPanel } from './UploadResultsPanel.js';
import { useReportUpload, type UploadFields } from './use-report-upload.js';

/** The upload half of /upload: fields, drop zone, Detected Files, Upload Results and its outcome. */
export function UploadForm({ onUploaded }: { onUploaded(): void }) {
  const [fields, setFields] = useState<UploadFields>({ project: '', gitCommit: '', gitBranch: '' });
  const upload = useReportUpload(onUploaded);
  const busy = upload.progress !== null;
  const field = (name: keyof UploadFields) => ({
    value: fields[name],
    disabled: busy,
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const value = event.currentTarget.value;
      setFields((current) => ({ ...current, [name]: value }));
    },
  });

  return (
    <Paper withBorder p="lg" radius="md">
      <Stack gap="md">
        <Title order={3}>Upload Test Results</Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput label="Project Name" placeholder="Detected from the report" {...field('project')} />
          <TextInput label="Git Commit (optional)" placeholder="e.g. 3f2a9c1" {...field('gitCommit')} />
          <TextInput label="Git Branch (optional)" placeholder="e.g. main" {...field('gitBranch')} />
        </SimpleGrid>
        <ReportDropZone onFiles={upload.addFiles} disabled={busy} />
        <DetectedFilesList files={upload.files} onRemove={upload.removeFile} disabled={busy} />
        {(upload.files.length > 0 || busy) && (
          <Group gap="md">
            <Button
              onClick={() => void upload.upload(fields)}
              disabled={busy || upload.reading || upload.files.length === 0}
              leftSection={busy ? <Loader size={14} color="gray" /> : undefined}
            >
              {upload.progress ? `Uploading ${Math.min(upload.progress.done + 1, upload.progress.total)} of ${upload.progress.total}...` : 'Upload Results'}
            </Button>
            {upload.progress && (
              <Stack gap={4} style={{ flex: 1, minWidth: 160 }}>
                <Progress value={(upload.progress.done / upload.progress.total) * 100} animated aria-label="Upload progress" />
                <Text size="xs" c="dimmed">
                  {upload.progress.done} of {upload.progress.total} file(s) done
                </Text>
              </Stack>
            )}
          </Group>
        )}
        {upload.outcomes && upload.outcomes.length > 0 && <UploadResultsPanel outcomes={upload.outcomes} finished={!busy} onClear={upload.clearOutcomes} />}
      </Stack>
    </Paper>
  );
}
