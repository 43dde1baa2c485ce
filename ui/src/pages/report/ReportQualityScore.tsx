import { Paper, RingProgress, Stack, Text } from '@mantine/core';
import { oneDecimal } from '../../lib/format.js';
import { TONE_COLORS, type ReportFigures } from './report-figures.js';
import classes from './report.module.css';
import { readableTextColor } from '../../lib/readable-color.js';

export function ReportQualityScore({ figures }: { figures: ReportFigures }) {
  const color = TONE_COLORS[figures.scoreTone];
  return (
    <Paper withBorder radius="md" p="lg" h="100%" className={classes.keepTogether} data-testid="quality-score">
      <Stack align="center" gap="xs">
        <Text size="sm" c="dimmed" tt="uppercase" fw={700}>
          Quality Score
        </Text>
        <RingProgress
          size={170}
          thickness={14}
          roundCaps
          sections={[{ value: figures.score, color }]}
          label={
            <Text ta="center" fz={34} fw={800} c={readableTextColor(color)} data-testid="quality-score-value">
              {oneDecimal(figures.score)}
            </Text>
          }
        />
        <Text fw={700} c={readableTextColor(color)} data-testid="quality-level">
          {figures.level}
        </Text>
        <Text size="xs" c="dimmed" ta="center">
          Pass rate less the flaky-test impact (at most 20 points)
        </Text>
      </Stack>
    </Paper>
  );
}
