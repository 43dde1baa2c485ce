import { Group, Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './report.module.css';
import { readableTextColor } from '../../lib/readable-color.js';

/** A report figure; `delta` is one of SPEC.md's fixed 'vs last period' placeholders. */
export function MetricCard({ label, value, color, delta, testId, hint }: {
  label: string;
  value: ReactNode;
  color?: string;
  delta?: { text: string; good: boolean };
  testId?: string;
  hint?: ReactNode;
}) {
  return (
    <Paper withBorder radius="md" p="md" className={classes.keepTogether} data-testid={testId}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fz={26} fw={700} c={readableTextColor(color)} lh={1.3} data-testid={testId ? `${testId}-value` : undefined}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
      {delta && (
        <Group gap={4} mt={4}>
          <Text size="xs" fw={600} c={delta.good ? 'green' : 'red'}>
            {delta.text}
          </Text>
          <Text size="xs" c="dimmed">
            vs last period
          </Text>
        </Group>
      )}
    </Paper>
  );
}
