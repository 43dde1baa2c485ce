import { Group, Pagination, Text } from '@mantine/core';

/** "Showing 51–100 of 1,234" and the page controls under a paged list; nothing for an empty one. */
export function ListPager({ page, pageSize, total, noun, onPage, testId }: { page: number; pageSize: number; total: number; noun: string; onPage(page: number): void; testId: string }) {
  if (total === 0) return null;
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  const pages = Math.ceil(total / pageSize);
  return (
    <Group justify="space-between" gap="sm" mt="sm" data-testid={testId}>
      <Text size="sm" c="dimmed" data-testid={`${testId}-text`}>
        {`Showing ${first.toLocaleString('en-US')}–${last.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} ${noun}`}
      </Text>
      {pages > 1 && <Pagination size="sm" total={pages} value={page} onChange={onPage} siblings={1} boundaries={1} getControlProps={(control) => ({ 'aria-label': `${control} page` })} />}
    </Group>
  );
}
