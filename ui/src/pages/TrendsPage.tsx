import { SimpleGrid, Stack } from '@mantine/core';
import { trends } from '../api/calls.js';
import { PageHeader } from '../components/PageHeader.js';
import { PageStates } from '../components/PageState.js';
import { StatCard } from '../components/StatCard.js';
import { formatDuration, passRateColor, percent } from '../lib/format.js';
import { useReloadOnTestDataUpdated } from '../lib/reload-on-test-data.js';
import { useApi } from '../lib/use-api.js';
import { DailyBreakdownTable } from './trends/DailyBreakdownTable.js';
import { TrendCharts } from './trends/TrendCharts.js';
import { StoredRunsNote } from './trends/StoredRunsNote.js';
import { hasResults, trendRows, trendSummary } from './trends/trend-summary.js';
import { readableTextColor } from '../lib/readable-color.js';

export function TrendsPage() {
  const { data, error, loading, reload } = useApi(trends, []);
  useReloadOnTestDataUpdated(reload);

  const rows = data ? trendRows(data) : undefined;
  return (
    <>
      <PageHeader title="Test Trends (Last 30 Days)" />
      <PageStates
        error={error ? { text: 'Failed to load trends data', onRetry: reload } : null}
        loading={!data || (loading && data.length === 0) ? 'Loading trends...' : null}
        empty={rows && !hasResults(rows) ? { title: 'No trend data available', body: <StoredRunsNote /> } : null}
      >
        {rows && <TrendsContent rows={rows} />}
      </PageStates>
    </>
  );
}

/** The figures over the days, their charts and the table of each day. */
function TrendsContent({ rows }: { rows: ReturnType<typeof trendRows> }) {
  const summary = trendSummary(rows);
  const activeDays = rows.filter((r) => r.total_tests > 0).length;
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <StatCard label="Total Tests Run" value={summary.totalTests.toLocaleString()} hint={`on ${activeDays} of the last ${rows.length} days`} />
        <StatCard label="Average Pass Rate" value={percent(summary.avgPassRate)} color={readableTextColor(passRateColor(summary.avgPassRate))} hint="passed / total, as the dashboard" />
        <StatCard label="Average Duration" value={formatDuration(summary.avgDuration)} hint="per test that ran, as the dashboard" />
      </SimpleGrid>
      <TrendCharts rows={rows} />
      <DailyBreakdownTable rows={rows} />
    </Stack>
  );
}
