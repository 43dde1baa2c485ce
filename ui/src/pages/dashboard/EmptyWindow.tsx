import { Button, Paper, Text } from '@mantine/core';
import type { StoredRuns } from '../../../../core/api/analytics.js';
import { EmptyState } from '../../components/PageState.js';
import { emptyWindowText, widenLabel, widerWindow } from '../../lib/widen-window.js';

/** The chosen window is empty but the store is not: say what there is and offer the window that shows it. */
export function EmptyWindow({ days, stored, onWiden }: { days: number; stored: StoredRuns; onWiden(days: number): void }) {
  const wider = widerWindow(stored, new Date());
  return (
    <Paper withBorder radius="md" p="xl" data-testid="empty-window">
      <EmptyState title="No test results in this period">
        <Text c="dimmed">{emptyWindowText(days, stored)}</Text>
        <Button mt="sm" onClick={() => onWiden(wider)}>
          {widenLabel(wider)}
        </Button>
      </EmptyState>
    </Paper>
  );
}
