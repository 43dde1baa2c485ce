import { Group, Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './report.module.css';
import { readableTextColor } from '../../lib/readable-color.js';
import type { ShownChange } from '../../lib/period-change.js';

/** A report figure; `delta` its change against the previous window of the same length ('—' when there is none). */
export function ReportMetric({ label, value, color, delta, testId, hint }: {
  label: string;
  value: ReactNode;
  color?: string;
  delta?: ShownChange;
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
          <Text size="xs" fw={600} c={delta.good === null ? 'dimmed' : delta.good ? 'green' : 'red'} data-testid={testId ? `${testId}-delta` : undefined}>
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
