import { Alert, Stack, Text } from '@mantine/core';
import type { TestResultDetail } from '../../../../core/api/analytics.js';
import { LoadingState } from '../../components/PageState.js';
import { skippedWithoutFailures } from './error-display.js';
import { HistoryEntry } from './HistoryEntry.js';

/** One entry per run, newest first as the server sends them; undefined while loading. */
export function TestHistoryTab({ history }: { history: TestResultDetail[] | undefined }) {
  if (history === undefined) return <LoadingState text="Loading test history..." />;
  if (history.length === 0) {
    return (
      <Text c="dimmed" ta="center" py="xl">
        No test history available.
      </Text>
    );
  }
  return (
    <Stack gap="sm" data-testid="test-history">
      {skippedWithoutFailures(history) && (
        <Alert color="gray" variant="light" title="Skipped, not failed" data-testid="skipped-note">
          This test was skipped rather than failed: none of its recorded runs failed.
        </Alert>
      )}
      {history.map((result) => (
        <HistoryEntry key={result.id} result={result} />
      ))}
    </Stack>
  );
}
