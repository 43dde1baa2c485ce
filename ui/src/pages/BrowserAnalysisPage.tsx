import { Select, Stack, Text } from '@mantine/core';
import { Link, useSearchParams } from 'react-router-dom';
import { dashboard } from '../api/calls.js';
import { PageHeader } from '../components/PageHeader.js';
import { PageStates } from '../components/PageState.js';
import { useReloadOnTestDataUpdated } from '../lib/reload-on-test-data.js';
import { useApi } from '../lib/use-api.js';
import { BrowserComparisonChart } from './browsers/BrowserComparisonChart.js';
import { BrowserIssues } from './browsers/BrowserIssues.js';
import { parseDays, TIME_RANGES } from '../lib/time-range.js';
import { browserRows } from './browsers/browser-rows.js';
import { BrowserTable } from './browsers/BrowserTable.js';

export function BrowserAnalysisPage() {
  const [params, setParams] = useSearchParams();
  const days = parseDays(params.get('days'));
  const { data, error, loading, reload } = useApi(() => dashboard(days), [days]);
  useReloadOnTestDataUpdated(reload);

  const range = (
    <Select
      label="Time Range"
      w={180}
      allowDeselect={false}
      data={TIME_RANGES}
      value={String(days)}
      onChange={(value) => value !== null && setParams({ days: value }, { replace: true })}
    />
  );

  const rows = data && !loading ? browserRows(data.browserComparison) : undefined;
  const empty = rows?.length === 0 ? { title: 'No browser data available', body: <Text c="dimmed">No test results in this period. <Link to="/upload">Upload Test Results</Link></Text> } : null;
  return (
    <>
      <PageHeader title="Browser Analysis" subtitle={days === 0 ? 'Showing all test results' : `Showing test results from the last ${days} days`} actions={range} />
      <PageStates error={error ? { text: 'Failed to load browser analysis', onRetry: reload } : null} loading={!rows ? 'Loading browser analysis...' : null} empty={empty}>
        {rows && (
          <Stack gap="lg">
            <BrowserIssues rows={rows} />
            <BrowserTable rows={rows} />
            <BrowserComparisonChart rows={rows} />
          </Stack>
        )}
      </PageStates>
    </>
  );
}
