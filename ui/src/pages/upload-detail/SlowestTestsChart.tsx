import { BarChart } from '@mantine/charts';
import { Center, Paper, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { TestResultRow } from '../../../../core/api/uploads.js';
import { durationAxis } from '../../lib/duration-axis.js';
import { formatDuration, truncate } from '../../lib/format.js';
import { durationColor } from './duration-color.js';

/** docs/screens.md#run-details: a bar chart of the ten slowest tests of the run (the server picks them). */
export function SlowestTestsChart({ slowest, browserCount }: { slowest: readonly TestResultRow[]; browserCount: number }) {
  // On a phone the names give the bars room: a 280 px axis left them a sliver.
  const narrow = useMediaQuery('(max-width: 36em)') ?? false;
  // The same test runs once per browser: name the browser when there are several.
  const data = slowest.map((r) => ({
    name: truncate(browserCount > 1 ? `${r.test_title} (${r.browser})` : r.test_title, narrow ? 20 : 48),
    duration: r.duration_ms,
  }));
  // One unit for the whole axis; a bar's own tooltip keeps its own.
  const axis = durationAxis(Math.max(0, ...data.map((d) => d.duration)));
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
          xAxisProps={{ ticks: axis.ticks, domain: [0, axis.ticks[axis.ticks.length - 1]!], tickFormatter: axis.format, interval: 0 }}
          yAxisProps={{ width: narrow ? 140 : 280, interval: 0 }}
          gridAxis="x"
          withTooltip
          tooltipAnimationDuration={150}
        />
      )}
    </Paper>
  );
}
