import { BarChart } from '@mantine/charts';
import { Paper, Title } from '@mantine/core';
import type { BrowserRow } from './browser-rows.js';

/** Passed, failed and skipped per browser side by side, so the odd one out stands out. */
export function BrowserComparisonChart({ rows }: { rows: readonly BrowserRow[] }) {
  const data = rows.map((r) => ({ browser: r.browser, Passed: r.passed, Failed: r.failed, Skipped: r.skipped }));
  return (
    <Paper withBorder radius="md" p="md" data-testid="browser-chart">
      <Title order={4} mb="md">
        Results by Browser
      </Title>
      <BarChart
        h={300}
        data={data}
        dataKey="browser"
        withLegend
        series={[
          { name: 'Passed', color: 'green.6' },
          { name: 'Failed', color: 'red.6' },
          { name: 'Skipped', color: 'gray.5' },
        ]}
        valueFormatter={(v) => v.toLocaleString()}
      />
    </Paper>
  );
}
