import { SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { slowTestsPage } from '../api/calls.js';
import { ListPager } from '../components/ListPager.js';
import { PageHeader } from '../components/PageHeader.js';
import { PageStates } from '../components/PageState.js';
import { StatCard } from '../components/StatCard.js';
import { useReloadOnTestDataUpdated } from '../lib/reload-on-test-data.js';
import { useApi } from '../lib/use-api.js';
import { OptimisationTips } from './slow/OptimisationTips.js';
import { SlowTestsTable } from './slow/SlowTestsTable.js';

/** Tests per page, slowest first. */
const PAGE_SIZE = 50;

export function SlowTestsPage() {
  const [page, setPage] = useState(1);
  const { data: answer, error, loading, reload } = useApi(() => slowTestsPage(page, PAGE_SIZE), [page]);
  const data = answer?.items;
  useReloadOnTestDataUpdated(reload);

  const empty = data?.length === 0 && !loading ? { title: 'No test performance data yet', body: <Text c="dimmed">Run some tests and upload their results to see which tests are slow.</Text> } : null;
  return (
    <>
      <PageHeader title="Test Performance Analysis" subtitle="Tests by average duration, slowest first" />
      <PageStates error={error ? { text: 'Failed to load slow tests', onRetry: reload } : null} loading={!data || (loading && data.length === 0) ? 'Loading slow tests...' : null} empty={empty}>
        {answer && <SlowTestsContent answer={answer} onPage={setPage} />}
      </PageStates>
    </>
  );
}

function SlowTestsContent({ answer, onPage }: { answer: NonNullable<Awaited<ReturnType<typeof slowTestsPage>>>; onPage(page: number): void }) {
    // Over every test of the window, not this page.
    const { total } = answer;
    const { slow, very_slow: verySlow } = answer.counts;
    return (
      <Stack gap="lg">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <StatCard label="Tests Analyzed" value={total.toLocaleString()} />
          <StatCard label="Slow Tests (>10s)" value={slow.toLocaleString()} color={slow > 0 ? 'orange' : undefined} />
          <StatCard label="Very Slow Tests (>30s)" value={verySlow.toLocaleString()} color={verySlow > 0 ? 'red' : undefined} />
        </SimpleGrid>
        {slow > 0 && <OptimisationTips />}
        <SlowTestsTable tests={answer.items} />
        <ListPager page={answer.page} pageSize={answer.pageSize} total={total} noun="tests" onPage={onPage} testId="slow-pager" />
      </Stack>
    );
}
