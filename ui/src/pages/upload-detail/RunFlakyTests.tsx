import { Group, Paper, ScrollArea, Stack, Text, Title } from '@mantine/core';
import type { TestResultRow } from '../../../../core/api/uploads.js';
import { BrowserLabel } from '../../components/BrowserLabel.js';
import { EvidenceButton } from '../../components/evidence/EvidenceButton.js';
import { TestStatusBadge } from './TestStatusBadge.js';

/**
 * 'Flaky Tests': the tests of this run that passed on a retry. One that failed every retry is a
 * failure, not flaky: it is only counted here. A run of thousands of tests can retry hundreds:
 * the server sends the first RUN_FLAKY_SHOWN and the count; the table has them all.
 */
export function RunFlakyTests({ tests, total, failedAfterRetries = 0 }: { tests: readonly TestResultRow[]; total: number; failedAfterRetries?: number }) {
  const failedNote = failedAfterRetries > 0 && (
    <Text size="xs" c="dimmed" data-testid="failed-after-retries">
      {failedAfterRetries.toLocaleString()} {failedAfterRetries === 1 ? 'test' : 'tests'} failed every retry: not flaky, listed as Failed in the Test Results table.
    </Text>
  );
  return (
    <Paper withBorder p="md" radius="md" h="100%" data-testid="run-flaky-tests">
      <Title order={4} mb="sm">
        Flaky Tests
      </Title>
      {tests.length === 0 ? (
        <Stack gap="xs">
          <Text c="dimmed" size="sm">
            No test passed on a retry in this run.
          </Text>
          {failedNote}
        </Stack>
      ) : (
        <ScrollArea.Autosize mah={320} type="auto" offsetScrollbars>
          <Stack gap="xs">
            {tests.map((test) => (
              <Group key={test.id} justify="space-between" gap="xs" align="flex-start">
                <Stack gap={0} style={{ minWidth: 0 }}>
                  <Text size="sm" fw={500} style={{ wordBreak: 'break-word' }}>
                    {test.test_title}
                  </Text>
                  <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
                    {test.test_file} · Retried {test.retry_count} time(s)
                  </Text>
                </Stack>
                <Group gap={6} wrap="nowrap">
                  <EvidenceButton title={test.test_title} attempts={test.attempts} resultId={test.id} />
                  <BrowserLabel browser={test.browser} />
                  <TestStatusBadge status={test.status} />
                </Group>
              </Group>
            ))}
            {total > tests.length && (
              <Text size="xs" c="dimmed">
                and {(total - tests.length).toLocaleString()} more; filter the Test Results table to see them all.
              </Text>
            )}
            {failedNote}
          </Stack>
        </ScrollArea.Autosize>
      )}
    </Paper>
  );
}
