import { BarChart, LineChart } from '@mantine/charts';
import { Paper, SimpleGrid, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { durationAxis } from '../../lib/duration-axis.js';
import { formatDuration, percent } from '../../lib/format.js';
import { dayLabel, type TrendRow } from './trend-summary.js';

function ChartCard({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  return (
    <Paper withBorder radius="md" p="md" data-testid={testId}>
      <Title order={4} mb="md">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

/** The three charts of Trends (docs/screens.md#trends), oldest day on the left. */
export function TrendCharts({ rows }: { rows: readonly TrendRow[] }) {
  const data = rows.map((r) => ({
    day: dayLabel(r.date, 'short'),
    'Pass Rate': r.passRate === null ? null : Math.round(r.passRate * 10) / 10,
    Passed: r.passed,
    Failed: r.failed,
    'Avg Duration': r.total_tests > 0 ? Math.round(r.avg_duration) : null,
  }));
  const durations = durationAxis(Math.max(0, ...data.map((d) => d['Avg Duration'] ?? 0)));
  return (
    <Stack>
      <ChartCard title="Pass Rate Trend" testId="pass-rate-trend">
        <LineChart h={260} data={data} dataKey="day" series={[{ name: 'Pass Rate', color: 'green.6' }]} yAxisProps={{ domain: [0, 100], tickFormatter: (v: number) => `${v}%` }} valueFormatter={percent} curveType="monotone" gridAxis="xy" connectNulls />
      </ChartCard>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <ChartCard title="Test Volume Trend" testId="test-volume-trend">
          <BarChart
            h={260}
            data={data}
            dataKey="day"
            type="stacked"
            withLegend
            series={[
              { name: 'Passed', color: 'green.6' },
              { name: 'Failed', color: 'red.6' },
            ]}
            valueFormatter={(v) => v.toLocaleString()}
          />
        </ChartCard>
        <ChartCard title="Performance Trend" testId="performance-trend">
          <LineChart
            h={260}
            data={data}
            dataKey="day"
            series={[{ name: 'Avg Duration', color: 'indigo.6' }]}
            valueFormatter={formatDuration}
            yAxisProps={{ ticks: durations.ticks, domain: [0, durations.ticks[durations.ticks.length - 1]!], tickFormatter: durations.format, interval: 0 }}
            curveType="monotone"
            gridAxis="xy"
            connectNulls
          />
        </ChartCard>
      </SimpleGrid>
    </Stack>
  );
}
