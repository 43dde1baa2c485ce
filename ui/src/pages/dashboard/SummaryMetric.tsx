import { Group, Paper, Text, type MantineColor } from '@mantine/core';
import type { ShownChange } from '../../lib/period-change.js';

/** One Executive Summary figure with its change against the previous period; green when it went the good way. */
export function SummaryMetric({ label, value, color, change }: { label: string; value: string; color?: MantineColor; change: ShownChange }) {
  const arrow = change.text.startsWith('+') ? '▲ ' : change.text.startsWith('-') ? '▼ ' : '';
  return (
    <Paper withBorder radius="md" p="sm" data-testid="metric-card" aria-label={label} style={{ display: 'flex', flexDirection: 'column', justifyContent: 'space-between' }}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Group justify="space-between" align="baseline" gap={4} wrap="nowrap">
        <Text fz={22} fw={700} c={color} data-testid="metric-value">
          {value}
        </Text>
        <Text size="sm" fw={600} c={change.good === null ? 'dimmed' : change.good ? 'green' : 'red'} data-testid="metric-trend" title={change.good === null && change.text === '—' ? 'No previous period to compare with' : undefined}>
          {arrow}
          {change.text}
        </Text>
      </Group>
    </Paper>
  );
}
