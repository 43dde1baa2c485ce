import { AreaChart, LineChart } from '@mantine/charts';
import { Box, Text } from '@mantine/core';
import type { Ref } from 'react';
import type { DailyStat } from '../../../../core/api/analytics.js';

const percentLabel = (value: number) => `${value.toFixed(1)}%`;

/** The daily pass-rate line with the 80% and 50% reference lines, and the runs per day under it. */
export function PassRateHistoryCharts({ days, chartRef }: { days: readonly DailyStat[]; chartRef: Ref<HTMLDivElement> }) {
  const data = days.map((d) => ({ date: d.date, passRate: Math.round(d.pass_rate * 1000) / 10, passed: d.passed_runs, failed: d.failed_runs }));
  return (
    <>
      <Box ref={chartRef} data-testid="pass-rate-chart">
        <Text size="sm" fw={600} mb={6}>
          Daily pass rate
        </Text>
        <LineChart
          h={240}
          data={data}
          dataKey="date"
          series={[{ name: 'passRate', label: 'Pass rate', color: 'indigo.6' }]}
          curveType="linear"
          yAxisProps={{ domain: [0, 100], ticks: [0, 20, 40, 60, 80, 100] }}
          valueFormatter={percentLabel}
          referenceLines={[
            { y: 80, label: 'Minor flakiness (80%)', color: 'yellow.7', labelPosition: 'insideTopRight' },
            { y: 50, label: 'Moderate flakiness (50%)', color: 'red.6', labelPosition: 'insideTopRight' },
          ]}
          gridAxis="y"
          withDots={data.length <= 60}
          lineChartProps={{ accessibilityLayer: false }}
        />
      </Box>
      <Box mt="md" data-testid="runs-chart">
        <Text size="sm" fw={600} mb={6}>
          Runs per day
        </Text>
        <AreaChart
          h={120}
          data={data}
          dataKey="date"
          type="stacked"
          curveType="linear"
          series={[
            { name: 'passed', label: 'Passed', color: 'green.6' },
            { name: 'failed', label: 'Failed', color: 'red.6' },
          ]}
          gridAxis="y"
          withDots={false}
          yAxisProps={{ allowDecimals: false }}
        />
      </Box>
    </>
  );
}
