import { Group, Stack, Text } from '@mantine/core';
import type { TrendDirection } from '../../../../core/analytics/formulas.js';
import type { BrowserEntry, FlakyTestGroup } from '../../../../core/api/analytics.js';
import { BrowserLabel } from '../../components/BrowserLabel.js';
import { DataTable, type DataColumn } from '../../components/DataTable.js';
import { RowFigures } from '../../components/RowFigures.js';
import { flakyPassRateColor, fractionPercent, oneDecimal } from '../../lib/format.js';
import { browserTrend, flakyScoreOf } from './flaky-filter.js';
import { TrendBadge } from './TrendBadge.js';

interface Props {
  group: FlakyTestGroup;
  onOpen(entry: BrowserEntry): void;
  onTrend(direction: TrendDirection): void;
  /** The phone layout: each browser's figures under their names in one cell. */
  stacked?: boolean;
}

const COLUMNS: DataColumn<BrowserEntry>[] = [
  { key: 'browser', header: 'Browser', cell: (entry) => <BrowserLabel browser={entry.browser} /> },
  { key: 'rate', header: 'Pass Rate', cell: (entry) => <PassRate entry={entry} /> },
  { key: 'runs', header: 'Runs', cell: (entry) => entry.total_runs },
  { key: 'failed', header: 'Failed', cell: (entry) => entry.failed_runs },
  { key: 'skipped', header: 'Skipped', cell: (entry) => entry.skipped_runs },
  { key: 'score', header: 'Flaky Score', cell: (entry) => oneDecimal(flakyScoreOf(entry)) },
];

/** One row per browser of an expanded group; a row opens the detail dialog, as its last cell says. */
export function BrowserBreakdown({ group, onOpen, onTrend, stacked = false }: Props) {
  const columns: DataColumn<BrowserEntry>[] = [
    ...COLUMNS,
    { key: 'trend', header: 'Trend', cell: (entry) => <TrendBadge trend={browserTrend(entry)} onClick={onTrend} /> },
    { key: 'open', header: '', headerLabel: 'Open', align: 'right', style: { paddingRight: 'var(--mantine-spacing-md)' }, cell: () => <OpenCue /> },
  ];
  return (
    <>
      <Text size="xs" c="dimmed" pt={6} pl={stacked ? 0 : 10} data-testid="browser-rows-hint">
        Open a browser for its run history, daily trend and AI analysis.
      </Text>
      <DataTable
        columns={columns}
        rows={group.browsers}
        rowKey={(entry) => entry.browser}
        rowTestId="browser-row"
        rowData={(entry) => ({ 'data-browser': entry.browser })}
        rowLabel={(entry) => `Open details for ${entry.browser}`}
        onRowClick={onOpen}
        stacked={(entry) => <StackedBrowser entry={entry} onTrend={onTrend} />}
        withRowBorders={stacked}
        horizontalSpacing={stacked ? 0 : undefined}
        verticalSpacing={6}
        highlightOnHover
        testId="browser-rows"
      />
    </>
  );
}

/** A browser on a phone: its badge, trend and cue on top, the figures under their names. */
function StackedBrowser({ entry, onTrend }: { entry: BrowserEntry; onTrend(direction: TrendDirection): void }) {
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <BrowserLabel browser={entry.browser} />
        <TrendBadge trend={browserTrend(entry)} onClick={onTrend} />
        <OpenCue />
      </Group>
      <RowFigures
        figures={[
          { label: 'Pass Rate', value: <PassRate entry={entry} /> },
          { label: 'Runs', value: entry.total_runs },
          { label: 'Failed', value: entry.failed_runs },
          { label: 'Skipped', value: entry.skipped_runs },
          { label: 'Score', value: oneDecimal(flakyScoreOf(entry)) },
        ]}
      />
    </Stack>
  );
}

function PassRate({ entry }: { entry: BrowserEntry }) {
  return (
    <>
      <Text size="sm" fw={600} c={flakyPassRateColor(entry.pass_rate)}>
        {fractionPercent(entry.pass_rate)}
      </Text>
      {entry.passed_on_retry > 0 && (entry.final_pass_rate ?? entry.pass_rate) !== entry.pass_rate && (
        <Text size="xs" c="dimmed" fw={400} title={`Pass rate of first attempts; passed on a retry in ${entry.passed_on_retry} runs`} data-testid="browser-final-rate">
          {fractionPercent(entry.final_pass_rate)} after retries
        </Text>
      )}
    </>
  );
}

/** What a click on the row does, said on the row: the whole row is the target. */
function OpenCue() {
  return (
    <Text span size="xs" fw={600} c="blue" style={{ whiteSpace: 'nowrap' }} aria-hidden="true">
      Details ›
    </Text>
  );
}
