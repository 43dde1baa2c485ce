import { SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { errorPatternsPage } from '../api/calls.js';
import { ListPager } from '../components/ListPager.js';
import { PageHeader } from '../components/PageHeader.js';
import { PageStates } from '../components/PageState.js';
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

  const empty = data?.length === 0 ? { title: 'No error patterns found', body: <Text c="dimmed">Failures of uploaded test runs are grouped here by what went wrong.</Text> } : null;
  return (
    <>
      <PageHeader title="Error Patterns" subtitle="Failures grouped by category and by message" />
      <PageStates error={error ? { text: 'Failed to load error patterns', onRetry: reload } : null} loading={!data || (loading && data.length === 0) ? 'Loading error patterns...' : null} empty={empty}>
        {answer && data && (
          <Stack gap="lg">
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <StatCard label="Error Categories" value={answer.counts.categories.toLocaleString()} />
              <StatCard label="Total Failures" value={answer.counts.failures.toLocaleString()} color="red" />
              <StatCard label="Browsers Affected" value={answer.counts.browsers.toLocaleString()} />
            </SimpleGrid>
            {groupByCategory(data).map((group) => (
              <ErrorCategoryCard key={group.category} group={group} />
            ))}
            <ListPager page={answer.page} pageSize={answer.pageSize} total={answer.total} noun="error patterns" onPage={setPage} testId="error-pager" />
          </Stack>
        )}
      </PageStates>
    </>
  );
}
