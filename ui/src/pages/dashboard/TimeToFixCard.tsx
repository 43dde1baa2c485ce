import { Group, Paper, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { TimeToFixSummary } from '../../../../core/api/analytics.js';
import { oneDecimal } from '../../lib/format.js';

const days = (n: number) => `${oneDecimal(n)} ${n === 1 ? 'day' : 'days'}`;

/** Median time to fix over the window's fixed flake episodes, and the open ones (docs/screens.md#time-to-fix). */
export function TimeToFixCard({ timeToFix, windowDays }: { timeToFix: TimeToFixSummary; windowDays: number }) {
  const { median_days: median, fixed, open, fixed_after_runs: runs } = timeToFix;
  return (
    <Paper withBorder radius="md" p="md" data-testid="time-to-fix">
      <Group justify="space-between" align="baseline" wrap="wrap" gap="xs">
        <Title order={4}>Time to Fix</Title>
        <Text size="xs" c="dimmed">
          fixed = {runs} runs without a flake
        </Text>
      </Group>
      <Group gap="xl" mt="xs" wrap="wrap" align="baseline">
        <div>
          <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
            Median
          </Text>
          <Text fz={22} fw={700} data-testid="median-time-to-fix">
            {median === null ? '—' : days(median)}
          </Text>
          <Text size="xs" c="dimmed">
            {fixed === 0 ? `no flaky test fixed ${windowDays === 0 ? 'yet' : `in the last ${windowDays} days`}` : `over ${fixed} ${fixed === 1 ? 'fix' : 'fixes'} ${windowDays === 0 ? 'in all' : `in the last ${windowDays} days`}`}
          </Text>
        </div>
        <div>
          <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
            Open now
          </Text>
          <Text fz={22} fw={700} c={open > 0 ? 'orange.8' : undefined} data-testid="open-flakes">
            {open}
          </Text>
          <Text size="xs" component={Link} to="/flaky-tests" c="blue">
            oldest open first
          </Text>
        </div>
      </Group>
    </Paper>
  );
}
