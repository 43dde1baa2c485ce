import { Alert, Button, Group, Paper, SegmentedControl, Select, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { RUN_RESULTS_PAGE_SIZE, type RunResultSort, type RunResultStatus, type TestResultRow } from '../../../../core/api/uploads.js';
import { uploadResults } from '../../api/calls.js';
import { DataTable } from '../../components/DataTable.js';
import { ListPager } from '../../components/ListPager.js';
import { EmptyState } from '../../components/PageState.js';
import { useApi } from '../../lib/use-api.js';
import { useServerSearch } from '../../lib/use-server-search.js';
import { TEST_RESULT_COLUMNS } from './TestResultColumns.js';

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


/**
 * docs/screens.md#run-details: search over title, file and error; status filter; sort. The server does
 * all three and sends one page: a run of 50,000 tests costs the page what a run of 50 does.
 * The detail call's first page is shown until the reader asks for another.
 */
export function TestResultsTable({ runId, first, total }: { runId: number; first: TestResultRow[]; total: number }) {
  const [page, setPage] = useState(1);
  const { input: searchInput, setInput: setSearchInput, search } = useServerSearch(() => setPage(1));
  const [status, setStatus] = useState<RunResultStatus>('all');
  const [sort, setSort] = useState<RunResultSort>('status');

  const initial = page === 1 && status === 'all' && sort === 'status' && search === '';
  const answer = useApi(
    () =>
      initial
        ? Promise.resolve({ items: first, total, page: 1, pageSize: RUN_RESULTS_PAGE_SIZE })
        : uploadResults(runId, { page, pageSize: RUN_RESULTS_PAGE_SIZE, status, search, sort }),
    [runId, page, status, sort, search],
  );
  const data = answer.data;

  let body;
  if (answer.error && !answer.loading) {
    body = (
      <Alert color="red" title="Failed to load test results">
        <Button size="xs" variant="light" onClick={answer.reload}>
          Try Again
        </Button>
      </Alert>
    );
  } else if (data && data.total === 0 && !answer.loading) {
    body = <EmptyState title="No tests match your filters." />;
  } else if (data) {
    body = (
      <>
        {/* Wider than a phone: the table scrolls inside its box, every column kept. */}
        <DataTable
          columns={TEST_RESULT_COLUMNS}
          rows={data.items}
          rowKey={(row) => String(row.id)}
          rowTestId="test-row"
          minWidth={900}
          scrollTestId="test-results-scroll"
          busy={answer.loading}
          striped
          highlightOnHover
        />
        <ListPager page={data.page} pageSize={data.pageSize} total={data.total} noun="tests" onPage={setPage} testId="results-pager" />
      </>
    );
  }

  return (
    <Paper withBorder p="md" radius="md" data-testid="test-results" aria-busy={answer.loading}>
      <Group justify="space-between" mb="md" wrap="wrap" gap="sm">
        <Title order={4}>Test Results</Title>
        <Group gap="sm" wrap="wrap">
          <TextInput
            placeholder="Search title, file or error..."
            aria-label="Search tests"
            value={searchInput}
            onChange={(event) => setSearchInput(event.currentTarget.value)}
            w={280}
            maw="100%"
          />
          <SegmentedControl
            aria-label="Status filter"
            data={STATUS_FILTERS}
            value={status}
            onChange={(value) => {
              setStatus(value as RunResultStatus);
              setPage(1);
            }}
          />
          <Select
            aria-label="Sort"
            data={SORTS}
            value={sort}
            onChange={(value) => {
              setSort((value ?? 'status') as RunResultSort);
              setPage(1);
            }}
            allowDeselect={false}
            w={180}
          />
        </Group>
      </Group>
      {body}
    </Paper>
  );
}
