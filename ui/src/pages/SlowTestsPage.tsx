import { SimpleGrid, Stack, Text } from '@mantine/core';
import { slowTests } from '../api/calls.js';
import { PageHeader } from '../components/PageHeader.js';
import { EmptyState, ErrorState, LoadingState } from '../components/PageState.js';
import { StatCard } from '../components/StatCard.js';
import { useReloadOnTestDataUpdated } from '../lib/reload-on-test-data.js';
import { useApi } from '../lib/use-api.js';
import { OptimisationTips } from './slow/OptimisationTips.js';
import { slowStats } from './slow/slow-stats.js';
import { SlowTestsTable } from './slow/SlowTestsTable.js';

export function SlowTestsPage() {
  const { data, error, loading, reload } = useApi(slowTests, []);
  useReloadOnTestDataUpdated(reload);

  let content;
  if (error) content = <ErrorState text="Failed to load slow tests" action={{ label: 'Try Again', onClick: reload }} />;
  else if (!data || (loading && data.length === 0)) content = <LoadingState text="Loading slow tests..." />;
  else if (data.length === 0) {
    content = (
      <EmptyState title="No test performance data yet">
        <Text c="dimmed">Run some tests and upload their results to see which tests are slow.</Text>
      </EmptyState>
    );
  } else {
    const stats = slowStats(data);
    content = (
      <Stack gap="lg">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <StatCard label="Tests Analyzed" value={stats.total.toLocaleString()} />
          <StatCard label="Slow Tests (>10s)" value={stats.slow.toLocaleString()} color={stats.slow > 0 ? 'orange' : undefined} />
          <StatCard label="Very Slow Tests (>30s)" value={stats.verySlow.toLocaleString()} color={stats.verySlow > 0 ? 'red' : undefined} />
        </SimpleGrid>
        {stats.slow > 0 && <OptimisationTips />}
        <SlowTestsTable tests={data} />
      </Stack>
    );
  }

  return (
    <>
      <PageHeader title="Test Performance Analysis" subtitle="Tests by average duration, slowest first" />
      {content}
    </>
  );
}
