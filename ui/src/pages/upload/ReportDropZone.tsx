import { Button, Paper, Stack, Text } from '@mantine/core';
import { useRef, useState, type DragEvent } from 'react';
import classes from './ReportDropZone.module.css';

/** Drag-and-drop of several report files, or Browse Files for the system picker. */
export function ReportDropZone({ onFiles, disabled }: { onFiles(files: File[]): void; disabled?: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  const onDragOver = (event: DragEvent) => {
    event.preventDefault();
    event.dataTransfer.dropEffect = disabled ? 'none' : 'copy';
    setOver(!disabled);
  };
  const onDragLeave = (event: DragEvent) => {
    // Moving over a child fires dragleave on the zone; only leaving the zone itself counts.
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (!disabled) onFiles(Array.from(event.dataTransfer.files));
  };

  return (
    <Paper
      p="xl"
      radius="md"
      className={classes.zone}
      data-over={over || undefined}
      data-testid="drop-zone"
      onDragOver={onDragOver}
      onDragEnter={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
    >
      <Stack align="center" gap="xs">
        <Text fw={600} size="lg">
          Drop JSON report files here
        </Text>
        <Text c="dimmed" size="sm" ta="center">
          Playwright JSON reporter output; several files at once are fine.
        </Text>
        <Button variant="light" mt="xs" disabled={disabled} onClick={() => input.current?.click()}>
          Browse Files
        </Button>
        <input
          ref={input}
          type="file"
          multiple
          accept=".json,application/json"
          hidden
          data-testid="file-input"
          onChange={(event) => {
            onFiles(Array.from(event.currentTarget.files ?? []));
            // Picking the same file again must fire change again.
            event.currentTarget.value = '';
          }}
        />
      </Stack>
    </Paper>
  );
}
