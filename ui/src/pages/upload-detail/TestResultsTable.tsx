import { Group, Pagination, Paper, SegmentedControl, Select, Table, Text, TextInput, Title } from '@mantine/core';
import { useDeferredValue, useMemo, useState } from 'react';
import type { TestResultRow } from '../../../../core/api/uploads.js';
import { EmptyState } from '../../components/PageState.js';
import { TestResultRowView } from './TestResultRowView.js';
import { filterAndSortTests, searchIndex, type SortKey, type StatusFilter } from './test-results-view.js';

/** Thousands of tests stay responsive: only one page of rows is in the DOM. */
export const PAGE_SIZE = 50;

const STATUS_FILTERS = [
  { value: 'all', label: 'All' },
  { value: 'passed', label: 'Passed' },
  { value: 'failed', label: 'Failed' },
  { value: 'skipped', label: 'Skipped' },
];

const SORTS = [
  { value: 'status', label: 'Sort by status' },
  { value: 'duration', label: 'Sort by duration' },
  { value: 'name', label: 'Sort by name' },
];

/** SPEC.md section 2: search over title, file and error; status filter; sort; paginated. */
export function TestResultsTable({ results }: { results: readonly TestResultRow[] }) {
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<StatusFilter>('all');
  const [sort, setSort] = useState<SortKey>('status');
  const [page, setPage] = useState(1);
  // Typing stays smooth on a large run: the filter catches up with the input.
  const deferredSearch = useDeferredValue(search);

  const index = useMemo(() => searchIndex(results), [results]);
  const rows = useMemo(() => filterAndSortTests(results, index, { search: deferredSearch, status, sort }), [results, index, deferredSearch, status, sort]);
  const pages = Math.max(1, Math.ceil(rows.length / PAGE_SIZE));
  const current = Math.min(page, pages);
  const shown = rows.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE);

  return (
    <Paper withBorder p="md" radius="md" data-testid="test-results">
      <Group justify="space-between" mb="md" wrap="wrap" gap="sm">
        <Title order={4}>Test Results</Title>
        <Group gap="sm" wrap="wrap">
          <TextInput
            placeholder="Search title, file or error..."
            aria-label="Search tests"
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              setPage(1);
            }}
            w={280}
          />
          <SegmentedControl
            aria-label="Status filter"
            data={STATUS_FILTERS}
            value={status}
            onChange={(value) => {
              setStatus(value as StatusFilter);
              setPage(1);
            }}
          />
          <Select aria-label="Sort" data={SORTS} value={sort} onChange={(value) => setSort((value ?? 'status') as SortKey)} allowDeselect={false} w={180} />
        </Group>
      </Group>
      {rows.length === 0 ? (
        <EmptyState title="No tests match your filters." />
      ) : (
        <>
          <Table.ScrollContainer minWidth={900}>
            <Table verticalSpacing="xs" striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={110}>Status</Table.Th>
                  <Table.Th>Test Name</Table.Th>
                  <Table.Th>File</Table.Th>
                  <Table.Th w={100}>Duration</Table.Th>
                  <Table.Th>Error</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shown.map((row) => (
                  <TestResultRowView key={row.id} row={row} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Group justify="space-between" mt="md" wrap="wrap">
            <Text size="sm" c="dimmed" data-testid="results-range">
              Showing {(current - 1) * PAGE_SIZE + 1}-{(current - 1) * PAGE_SIZE + shown.length} of {rows.length.toLocaleString()} tests
            </Text>
            {pages > 1 && <Pagination total={pages} value={current} onChange={setPage} size="sm" aria-label="Test results pages" />}
          </Group>
        </>
      )}
    </Paper>
  );
}
