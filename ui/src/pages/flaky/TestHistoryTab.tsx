import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import type { TestResultDetail } from '../../../../core/api/analytics.js';
import { PageStates } from '../../components/PageState.js';
import { skippedWithoutFailures } from './error-display.js';
import { HistoryEntry } from './HistoryEntry.js';

interface Props {
  /** Newest first as the server sends them; undefined while loading. */
  history: TestResultDetail[] | undefined;
  /** How many runs the test has on this browser in all. */
  total: number;
  loadingOlder: boolean;
  onOlder(): void;
}

/** One entry per run, a page at a time: "Showing N of M runs" and the next older page on demand. */
export function TestHistoryTab({ history, total, loadingOlder, onOlder }: Props) {
  return (
    <PageStates loading={history === undefined ? 'Loading test history...' : null} empty={history?.length === 0 ? { title: 'No test history available.' } : null}>
      {history && <HistoryEntries history={history} total={total} loadingOlder={loadingOlder} onOlder={onOlder} />}
    </PageStates>
  );
}

function HistoryEntries({ history, total, loadingOlder, onOlder }: Props & { history: TestResultDetail[] }) {
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
      <Group justify="space-between" data-testid="history-pager">
        <Text size="sm" c="dimmed">{`Showing ${history.length.toLocaleString('en-US')} of ${Math.max(total, history.length).toLocaleString('en-US')} runs`}</Text>
        {history.length < total && (
          <Button size="xs" variant="light" loading={loadingOlder} onClick={onOlder}>
            Show older runs
          </Button>
        )}
      </Group>
    </Stack>
  );
}
