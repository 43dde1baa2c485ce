import { Badge, Box, Group, Paper, Text } from '@mantine/core';
import type { TestResultDetail } from '../../../../core/api/analytics.js';
import { formatDateTime, formatDuration } from '../../lib/format.js';
import { EvidencePanel } from '../../components/evidence/EvidencePanel.js';
import { CodeContext } from './CodeContext.js';
import { formatErrorMessage, statusColor, statusLabel } from './error-display.js';
import { TestSteps } from './TestSteps.js';

function Section({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Box mt="sm">
      <Text size="xs" fw={700} c="dimmed" tt="uppercase" mb={4}>
        {label}
      </Text>
      {children}
    </Box>
  );
}

/** One run: status label, duration, date; for a failure the error, its code context and the steps. */
export function HistoryEntry({ result }: { result: TestResultDetail }) {
  const failed = result.status === 'failed' || result.status === 'timedOut';
  return (
    <Paper withBorder radius="md" p="sm" data-testid="history-entry" data-status={result.status} data-result-id={result.id}>
      <Group gap="sm" wrap="wrap">
        <Badge color={statusColor(result.status)} variant="light" data-testid="history-status">
          {statusLabel(result.status)}
        </Badge>
        <Text size="sm" fw={600}>
          {formatDuration(result.duration_ms)}
        </Text>
        <Text size="sm" c="dimmed">
          {formatDateTime(result.run_date)}
        </Text>
        {result.retries > 0 && (
          <Text size="sm" c="dimmed">
            Retried {result.retries} time(s)
          </Text>
        )}
        {result.git_branch && (
          <Text size="sm" c="dimmed" ff="monospace">
            {result.git_branch}
            {result.git_commit ? ` @ ${result.git_commit.slice(0, 7)}` : ''}
          </Text>
        )}
      </Group>
      {result.status === 'skipped' ? (
        <Text size="sm" c="dimmed" mt="sm">
          Test was skipped and did not run.
        </Text>
      ) : (
        <>
          {failed && (
            <>
              <Section label="Error message">
                <Text size="sm" c="red" ff="monospace" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="history-error">
                  {formatErrorMessage(result.error_message)}
                </Text>
              </Section>
              <Section label="Code context">
                <CodeContext snippet={result.error_snippet} location={result.error_location} />
              </Section>
            </>
          )}
          {result.attempts?.some((attempt) => attempt.status !== 'passed' && attempt.status !== 'skipped') && (
            <Section label="Evidence">
              <EvidencePanel attempts={result.attempts} resultId={result.id} />
            </Section>
          )}
          <TestSteps text={result.test_steps} />
        </>
      )}
    </Paper>
  );
}
