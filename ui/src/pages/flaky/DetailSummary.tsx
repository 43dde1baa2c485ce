import { Paper, SimpleGrid, Text } from '@mantine/core';
import type { BrowserEntry } from '../../../../core/api/analytics.js';
import { flakyPassRateColor, fractionPercent, oneDecimal } from '../../lib/format.js';
import { flakyScoreOf } from './flaky-filter.js';
import { retryNote } from '../../lib/final-rate.js';
import { isCriticalFlaky } from '../../../../core/analytics/formulas.js';

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

/**
 * The dialog's summary: Pass Rate, Total Runs, Failed Runs, Flaky Score (with the fallback of docs/screens.md#flaky-test-analysis),
 * and the rate after retries beside the first attempts' with why they differ.
 */
export function DetailSummary({ entry }: { entry: BrowserEntry }) {
  const ran = entry.total_runs - entry.skipped_runs;
  const final = entry.final_pass_rate ?? entry.pass_rate;
  const note = retryNote(entry.pass_rate * 100, final * 100, entry.passed_on_retry, ran);
  return (
    <>
      <SimpleGrid cols={{ base: 2, sm: 5 }}>
        <Figure label="Pass Rate" value={fractionPercent(entry.pass_rate)} color={flakyPassRateColor(entry.pass_rate)} />
        <Figure label="After Retries" value={fractionPercent(final)} color={flakyPassRateColor(final)} />
        <Figure label="Total Runs" value={entry.total_runs} />
        <Figure label="Failed Runs" value={entry.failed_runs} />
        <Figure label="Flaky Score" value={oneDecimal(flakyScoreOf(entry))} />
      </SimpleGrid>
      {note && (
        <Text size="sm" c="dimmed" mt="xs" data-testid="retry-note">
          Pass Rate counts first attempts{isCriticalFlaky(entry.pass_rate) ? ', which makes it critical' : ''}; {note}: flaky, not broken.
        </Text>
      )}
    </>
  );
}
