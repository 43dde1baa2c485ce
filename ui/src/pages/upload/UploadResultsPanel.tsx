import { Anchor, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { summariseOutcomes, type UploadOutcome } from './upload-outcome.js';

const STATUS_LABEL = { pending: 'Pending review', approved: 'Approved', rejected: 'Rejected' } as const;

/** Per-file success or error, then the summary and Clear (docs/screens.md#upload). */
export function UploadResultsPanel({ outcomes, finished, onClear }: { outcomes: UploadOutcome[]; finished: boolean; onClear(): void }) {
  const summary = summariseOutcomes(outcomes);
  return (
    <Paper withBorder p="md" radius="md" data-testid="upload-results">
      <Title order={4} mb="sm">
        Results
      </Title>
      <Stack gap="xs">
        {outcomes.map((outcome) => (
          <Paper key={outcome.key} p="sm" radius="sm" bg={outcome.ok ? 'var(--mantine-color-green-light)' : 'var(--mantine-color-red-light)'} data-testid="upload-outcome">
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Stack gap={2} style={{ minWidth: 0 }}>
                <Text size="sm" fw={600} style={{ wordBreak: 'break-all' }}>
                  {outcome.fileName}
                </Text>
                {outcome.ok ? (
                  <Group gap="xs">
                    <Text size="sm" data-testid="outcome-text">
                      {outcome.testsProcessed.toLocaleString()} tests processed
                    </Text>
                    <Badge size="sm" color="yellow" variant="light">
                      {STATUS_LABEL[outcome.status]}
                    </Badge>
                    {outcome.duplicate && (
                      <Badge size="sm" color="orange" variant="light">
                        Duplicate
                      </Badge>
                    )}
                  </Group>
                ) : (
                  <Text size="sm" c="red" data-testid="outcome-text" style={{ wordBreak: 'break-word' }}>
                    {outcome.error}
                  </Text>
                )}
              </Stack>
              {outcome.ok ? (
                <Badge color="green" variant="filled">
                  Success
                </Badge>
              ) : (
                <Badge color="red" variant="filled">
                  Error
                </Badge>
              )}
            </Group>
            {outcome.ok && (
              <Anchor component={Link} to={`/upload/${outcome.runId}`} size="xs" mt={4} display="inline-block">
                View run #{outcome.runId}
              </Anchor>
            )}
          </Paper>
        ))}
      </Stack>
      {finished && (
        <Group justify="space-between" mt="md" data-testid="upload-summary">
          <Group gap="lg">
            <Text size="sm">
              Successful: <b>{summary.successful}</b>
            </Text>
            <Text size="sm">
              Failed: <b>{summary.failed}</b>
            </Text>
            <Text size="sm">
              Total tests imported: <b>{summary.testsImported.toLocaleString()}</b>
            </Text>
          </Group>
          <Button variant="default" size="xs" onClick={onClear}>
            Clear
          </Button>
        </Group>
      )}
    </Paper>
  );
}
