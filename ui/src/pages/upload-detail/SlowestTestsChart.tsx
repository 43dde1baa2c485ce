import { BarChart } from '@mantine/charts';
import { Center, Paper, Text, Title } from '@mantine/core';
import type { TestResultRow } from '../../../../core/api/uploads.js';
import { formatDuration, truncate } from '../../lib/format.js';
import { durationColor } from './duration-color.js';
import { slowestTests } from './test-results-view.js';

/** SPEC.md section 2: a bar chart of the ten slowest tests of the run. */
export function SlowestTestsChart({ results }: { results: readonly TestResultRow[] }) {
  const slowest = slowestTests(results);
  const browsers = new Set(results.map((r) => r.browser));
  // The same test runs once per browser: name the browser when there are several.
  const data = slowest.map((r) => ({
    name: truncate(browsers.size > 1 ? `${r.test_title} (${r.browser})` : r.test_title, 48),
    duration: r.duration_ms,
  }));
  return (
    <Paper withBorder p="md" radius="md" h="100%" data-testid="slowest-tests">
      <Title order={4} mb="sm">
        Slowest Tests
      </Title>
      {data.length === 0 ? (
        <Center h={200}>
          <Text c="dimmed">No test results</Text>
        </Center>
      ) : (
        <BarChart
          h={Math.max(160, data.length * 30 + 40)}
          data={data}
          dataKey="name"
          orientation="vertical"
          series={[{ name: 'duration', label: 'Duration', color: 'indigo.5' }]}
          getBarColor={(value) => {
            const color = durationColor(value);
            return color ? `${color}.6` : 'indigo.5';
          }}
          valueFormatter={formatDuration}
          yAxisProps={{ width: 280, interval: 0 }}
          gridAxis="x"
          withTooltip
          tooltipAnimationDuration={150}
        />
      )}
    </Paper>
  );
}
