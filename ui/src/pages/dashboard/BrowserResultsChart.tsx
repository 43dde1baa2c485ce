import { BarChart } from '@mantine/charts';
import { Center, Paper, Text, Title } from '@mantine/core';
import type { BrowserComparison } from '../../../../core/api/analytics.js';

/** 'Browser Comparison': passed and failed results per browser, stacked. */
export function BrowserResultsChart({ browsers }: { browsers: BrowserComparison[] }) {
  const data = browsers.map((b) => ({ browser: b.browser, Passed: b.passed, Failed: b.failed }));
  return (
    <Paper withBorder radius="md" p="md" h="100%" data-testid="browser-comparison">
      <Title order={4} mb="sm">
        Browser Comparison
      </Title>
      {data.length === 0 ? (
        <Center h={260}>
          <Text c="dimmed">No browser results</Text>
        </Center>
      ) : (
        <BarChart
          h={280}
          data={data}
          dataKey="browser"
          type="stacked"
          withLegend
          legendProps={{ verticalAlign: 'bottom' }}
          maxBarWidth={72}
          tickLine="y"
          valueFormatter={(value) => value.toLocaleString()}
          series={[
            { name: 'Passed', color: 'green.6' },
            { name: 'Failed', color: 'red.6' },
          ]}
        />
      )}
    </Paper>
  );
}
