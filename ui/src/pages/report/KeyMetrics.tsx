import { SimpleGrid } from '@mantine/core';
import { oneDecimal, passRateColor, percent } from '../../lib/format.js';
import { ReportMetric } from './ReportMetric.js';
import type { ReportFigures } from './report-figures.js';
import type { PeriodChanges } from '../../lib/period-change.js';
import { finalRateHint } from '../../lib/final-rate.js';

/** docs/screens.md#executive-report: the key figures with their 'vs last period' changes, computed as the dashboard's. */
export function KeyMetrics({ figures, changes }: { figures: ReportFigures; changes: PeriodChanges }) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2 }} h="100%">
      <ReportMetric label="Pass Rate" value={percent(figures.passRate)} color={passRateColor(figures.passRate)} delta={changes.passRate} testId="metric-pass-rate" hint={finalRateHint(figures)} />
      <ReportMetric label="Total Tests" value={figures.totalTests.toLocaleString()} delta={changes.tests} testId="metric-total-tests" />
      <ReportMetric label="Flaky Tests" value={figures.flakyCount.toLocaleString()} color={figures.flakyCount > 0 ? 'orange' : 'green'} delta={changes.flaky} testId="metric-flaky" />
      <ReportMetric
        label="Est. Dev Time Lost"
        value={`${oneDecimal(figures.devHoursLostPerWeek)} hrs/week`}
        color={figures.devHoursLostPerWeek > 0 ? 'red' : undefined}
        hint="0.5 hours per flaky test per week"
        testId="metric-dev-time"
      />
    </SimpleGrid>
  );
}
