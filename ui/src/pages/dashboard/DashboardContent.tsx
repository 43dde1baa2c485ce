import { Grid, SimpleGrid, Stack } from '@mantine/core';
import type { DashboardResponse } from '../../../../core/api/analytics.js';
import { StatCard } from '../../components/StatCard.js';
import { StatusDonut } from '../../components/StatusDonut.js';
import { passRateColor, percent } from '../../lib/format.js';
import { BrowserResultsChart } from './BrowserResultsChart.js';
import { BrowserHealthGrid } from './BrowserHealthGrid.js';
import { ExecutiveSummaryPanel } from './ExecutiveSummaryPanel.js';
import { FlakyTrendCards } from './FlakyTrendCards.js';
import { HealthAlerts } from './HealthAlerts.js';
import { MostCriticalTests } from './MostCriticalTests.js';
import { RecentRunsTable } from './RecentRunsTable.js';
import { TimeToFixCard } from './TimeToFixCard.js';
import { passRatePercent } from '../../../../core/analytics/formulas.js';
import { finalRateHint } from '../../lib/final-rate.js';

/** Everything below the overview card once the range holds test results. */
export function DashboardContent({ data, days }: { data: DashboardResponse; days: number }) {
  const summary = data.summary[0];
  const trends = data.flakyTrendCounts;
  const hasTrends = trends.declining + trends.improving + trends.stable + trends.new > 0;
  const passRate = passRatePercent(summary.total_passed, summary.total_tests);
  return (
    <Stack gap="lg">
      <ExecutiveSummaryPanel data={data} days={days} />

      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md" data-testid="stat-cards">
        <StatCard label="Test Runs" value={summary.total_runs.toLocaleString()} />
        <StatCard label="Passed Tests" value={summary.total_passed.toLocaleString()} color="green" />
        <StatCard label="Failed Tests" value={summary.total_failed.toLocaleString()} color="red" />
        <StatCard
          label="Pass Rate (%)"
          value={percent(passRate)}
          color={passRateColor(passRate)}
          hint={<span data-testid="final-rate-hint">{finalRateHint({ passRate, finalPassRate: passRatePercent(summary.total_passed + summary.total_passed_on_retry, summary.total_tests), passedOnRetry: summary.total_passed_on_retry, totalTests: summary.total_tests })}</span>}
        />
      </SimpleGrid>

      {hasTrends && <FlakyTrendCards counts={trends} days={data.days} flakyCount={data.flakyCount} />}
      {data.timeToFix && <TimeToFixCard timeToFix={data.timeToFix} windowDays={days} />}

      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 5, lg: 4 }}>
          <StatusDonut passed={summary.total_passed} failed={summary.total_failed} skipped={summary.total_skipped} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7, lg: 8 }}>
          <BrowserResultsChart browsers={data.browserComparison} />
        </Grid.Col>
      </Grid>

      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <HealthAlerts data={data} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <MostCriticalTests tests={data.flakyTests} days={data.days} broken={data.brokenTests} brokenCount={data.brokenCount} />
        </Grid.Col>
      </Grid>

      <RecentRunsTable runs={data.recentRuns} />
      <BrowserHealthGrid browsers={data.browserComparison} />
    </Stack>
  );
}
