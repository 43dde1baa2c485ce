import { SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { errorPatternsPage } from '../api/calls.js';
import { ListPager } from '../components/ListPager.js';
import { PageHeader } from '../components/PageHeader.js';
import { EmptyState, ErrorState, LoadingState } from '../components/PageState.js';
import { StatCard } from '../components/StatCard.js';
import { useReloadOnTestDataUpdated } from '../lib/reload-on-test-data.js';
import { useApi } from '../lib/use-api.js';
import { ErrorCategoryCard } from './errors/ErrorCategoryCard.js';
import { groupByCategory } from './errors/pattern-groups.js';

/** Patterns per page, most frequent first; the cards group the page's patterns by category. */
const PAGE_SIZE = 50;

export function ErrorPatternsPage() {
  const [page, setPage] = useState(1);
  const { data: answer, error, loading, reload } = useApi(() => errorPatternsPage(page, PAGE_SIZE), [page]);
  const data = answer?.items;
  useReloadOnTestDataUpdated(reload);

  let content;
  if (error) content = <ErrorState text="Failed to load error patterns" action={{ label: 'Try Again', onClick: reload }} />;
  else if (!data || (loading && data.length === 0)) content = <LoadingState text="Loading error patterns..." />;
  else if (data.length === 0) {
    content = (
      <EmptyState title="No error patterns found">
        <Text c="dimmed">Failures of uploaded test runs are grouped here by what went wrong.</Text>
      </EmptyState>
    );
  } else {
    const stats = answer!.counts;
    content = (
      <Stack gap="lg">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <StatCard label="Error Categories" value={stats.categories.toLocaleString()} />
          <StatCard label="Total Failures" value={stats.failures.toLocaleString()} color="red" />
          <StatCard label="Browsers Affected" value={stats.browsers.toLocaleString()} />
        </SimpleGrid>
        {groupByCategory(data).map((group) => (
          <ErrorCategoryCard key={group.category} group={group} />
        ))}
        <ListPager page={answer!.page} pageSize={answer!.pageSize} total={answer!.total} noun="error patterns" onPage={setPage} testId="error-pager" />
      </Stack>
    );
  }

  return (
    <>
      <PageHeader title="Error Patterns" subtitle="Failures grouped by category and by message" />
      {content}
    </>
  );
}
