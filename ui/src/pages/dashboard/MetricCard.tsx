import { Group, Paper, Text, type MantineColor } from '@mantine/core';

/** One Executive Summary figure with its change; green when the change goes the good way. */
export function MetricCard({ label, value, color, trend, higherIsBetter }: { label: string; value: string; color?: MantineColor; trend: number; higherIsBetter: boolean }) {
  const good = trend === 0 || trend > 0 === higherIsBetter;
  return (
    <Paper withBorder radius="md" p="sm" data-testid="metric-card" aria-label={label} style={{ display: 'flex', flexDirection: 'column', justifyContent: 'space-between' }}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Group justify="space-between" align="baseline" gap={4} wrap="nowrap">
        <Text fz={22} fw={700} c={color} data-testid="metric-value">
          {value}
        </Text>
        <Text size="sm" fw={600} c={good ? 'green' : 'red'} data-testid="metric-trend">
          {trend > 0 ? '▲' : '▼'} {trend > 0 ? '+' : ''}
          {trend}%
        </Text>
      </Group>
    </Paper>
  );
}
