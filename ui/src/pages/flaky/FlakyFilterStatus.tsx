import { Button, Group, Text } from '@mantine/core';
import { FILTER_LABELS, type FlakyFilter } from './flaky-filter.js';

/** What the table shows; Clear Filter goes back to all. */
export function FlakyFilterStatus({ filter, shown, total, onClear }: { filter: FlakyFilter; shown: number; total: number; onClear(): void }) {
  return (
    <Group justify="space-between" mb="sm" mih={30} data-testid="filter-status">
      <Text size="sm" c="dimmed">
        {filter === 'all' ? `Showing all ${total} flaky tests` : `Showing ${shown} of ${total} flaky tests · Filter: ${FILTER_LABELS[filter]}`}
      </Text>
      {filter !== 'all' && (
        <Button size="xs" variant="light" onClick={onClear}>
          Clear Filter
        </Button>
      )}
    </Group>
  );
}
