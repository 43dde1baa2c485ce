import { SimpleGrid, Title } from '@mantine/core';
import type { SlowTest } from '../../../../core/api/analytics.js';
import { formatDuration, truncate } from '../../lib/format.js';
import { MetricCard } from './MetricCard.js';
import type { ReportFigures } from './report-figures.js';

/** SPEC.md section 2: the average duration here is the fixed placeholder 2.3 s, as are the deltas. */
const PLACEHOLDER_AVG_DURATION = '2.3s';

export function QuickStats({ figures, slowTests }: { figures: ReportFigures; slowTests: readonly SlowTest[] }) {
  const slowest = slowTests[0];
  return (
    <div>
      <Title order={4} mb="sm">
        Quick Stats
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
        <MetricCard label="Test Runs" value={figures.totalRuns.toLocaleString()} testId="quick-runs" />
        <MetricCard label="Avg Duration" value={PLACEHOLDER_AVG_DURATION} delta={{ text: '-5.2%', good: true }} testId="quick-avg-duration" />
        <MetricCard label="Browsers Tested" value={figures.browsers.length.toLocaleString()} testId="quick-browsers" />
        <MetricCard
          label="Slowest Test"
          value={slowest ? formatDuration(slowest.avg_duration) : '—'}
          hint={slowest ? truncate(slowest.test_title, 40) : 'No results'}
          testId="quick-slowest"
        />
      </SimpleGrid>
    </div>
  );
}
