import { Paper, SimpleGrid, Text } from '@mantine/core';
import type { BrowserEntry } from '../../../../core/api/analytics.js';
import { flakyPassRateColor, fractionPercent, oneDecimal } from '../../lib/format.js';
import { flakyScoreOf } from './flaky-filter.js';

function Figure({ label, value, color }: { label: string; value: string | number; color?: string }) {
  return (
    <Paper withBorder p="sm" radius="md" data-testid="summary-figure">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fz={22} fw={700} c={color}>
        {value}
      </Text>
    </Paper>
  );
}

/** The dialog's summary: Pass Rate, Total Runs, Failed Runs, Flaky Score (with SPEC.md's fallback). */
export function DetailSummary({ entry }: { entry: BrowserEntry }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }}>
      <Figure label="Pass Rate" value={fractionPercent(entry.pass_rate)} color={flakyPassRateColor(entry.pass_rate)} />
      <Figure label="Total Runs" value={entry.total_runs} />
      <Figure label="Failed Runs" value={entry.failed_runs} />
      <Figure label="Flaky Score" value={oneDecimal(flakyScoreOf(entry))} />
    </SimpleGrid>
  );
}
