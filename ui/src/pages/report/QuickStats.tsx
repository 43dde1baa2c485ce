import { SimpleGrid, Title } from '@mantine/core';
import type { SlowTest } from '../../../../core/api/analytics.js';
import { formatDuration, truncate } from '../../lib/format.js';
import { ReportMetric } from './ReportMetric.js';
import type { ReportFigures } from './report-figures.js';
import type { ShownChange } from '../../lib/period-change.js';

/** The average duration is the dashboard's (the same answer), with its change against the previous period. */
export function QuickStats({ figures, slowTests, avgDurationChange }: { figures: ReportFigures; slowTests: readonly SlowTest[]; avgDurationChange: ShownChange }) {
  const slowest = slowTests[0];
  return (
    <div>
      <Title order={4} mb="sm">
        Quick Stats
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
        <ReportMetric label="Test Runs" value={figures.totalRuns.toLocaleString()} testId="quick-runs" />
        <ReportMetric label="Avg Duration" value={formatDuration(figures.avgDuration)} delta={avgDurationChange} testId="quick-avg-duration" />
        <ReportMetric label="Browsers Tested" value={figures.browsers.length.toLocaleString()} testId="quick-browsers" />
        <ReportMetric
          label="Slowest Test"
          value={slowest ? formatDuration(slowest.avg_duration) : '—'}
          hint={slowest ? truncate(slowest.test_title, 40) : 'No results'}
          testId="quick-slowest"
        />
      </SimpleGrid>
    </div>
  );
}
