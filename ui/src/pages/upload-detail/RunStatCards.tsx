import { SimpleGrid } from '@mantine/core';
import type { UploadDetailResponse } from '../../../../core/api/uploads.js';
import { StatCard } from '../../components/StatCard.js';
import { passRateColor, percent } from '../../lib/format.js';

/** Total, passed, failed and pass rate (passed / total × 100, one decimal). */
export function RunStatCards({ stats }: { stats: UploadDetailResponse['stats'] }) {
  return (
    <SimpleGrid cols={{ base: 2, md: 4 }} data-testid="run-stats">
      <StatCard label="Total Tests" value={stats.total.toLocaleString()} hint={stats.skipped > 0 ? `${stats.skipped.toLocaleString()} skipped` : undefined} />
      <StatCard label="Passed" value={stats.passed.toLocaleString()} color="green" />
      <StatCard label="Failed" value={stats.failed.toLocaleString()} color={stats.failed > 0 ? 'red' : undefined} />
      <StatCard label="Pass Rate" value={percent(stats.pass_rate)} color={stats.total > 0 ? passRateColor(stats.pass_rate) : undefined} />
    </SimpleGrid>
  );
}
