import { SimpleGrid } from '@mantine/core';
import { oneDecimal, passRateColor, percent } from '../../lib/format.js';
import { MetricCard } from './MetricCard.js';
import type { ReportFigures } from './report-figures.js';

/** SPEC.md section 2: the 'vs last period' deltas are fixed placeholders, not computed. */
export function KeyMetrics({ figures }: { figures: ReportFigures }) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2 }} h="100%">
      <MetricCard label="Pass Rate" value={percent(figures.passRate)} color={passRateColor(figures.passRate)} delta={{ text: '+2.3%', good: true }} testId="metric-pass-rate" />
      <MetricCard label="Total Tests" value={figures.totalTests.toLocaleString()} delta={{ text: '+1.8%', good: true }} testId="metric-total-tests" />
      <MetricCard label="Flaky Tests" value={figures.flakyCount.toLocaleString()} color={figures.flakyCount > 0 ? 'orange' : 'green'} delta={{ text: '-12%', good: true }} testId="metric-flaky" />
      <MetricCard
        label="Est. Dev Time Lost"
        value={`${oneDecimal(figures.devHoursLostPerWeek)} hrs/week`}
        color={figures.devHoursLostPerWeek > 0 ? 'red' : undefined}
        hint="0.5 hours per flaky test per week"
        testId="metric-dev-time"
      />
    </SimpleGrid>
  );
}
