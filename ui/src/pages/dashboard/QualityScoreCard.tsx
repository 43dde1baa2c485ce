import { ActionIcon, Badge, Box, Center, Group, Paper, RingProgress, Stack, Text, Tooltip } from '@mantine/core';
import { useState } from 'react';
import { DataTable, type DataColumn } from '../../components/DataTable.js';
import { oneDecimal, percent } from '../../lib/format.js';
import { QUALITY_COLORS, type ExecutiveSummary } from './executive-summary.js';

/** One line of how the score was reached: pass rate, less the flaky impact, gives the result. */
interface BreakdownLine {
  key: string;
  label: string;
  note?: string;
  value: string;
  total?: boolean;
}

const breakdown = (summary: ExecutiveSummary): BreakdownLine[] => [
  { key: 'pass-rate', label: 'Pass rate', value: percent(summary.passRate) },
  { key: 'flaky-impact', label: 'Flaky impact', note: `${summary.flakyCount} flaky / ${summary.totalTests.toLocaleString()} tests × 100, at most 20`, value: `-${oneDecimal(summary.flakyImpact)}` },
  { key: 'result', label: 'Result', value: oneDecimal(summary.score), total: true },
];

/** A line's text, bold on the result line. */
const LineText = ({ line, children }: { line: BreakdownLine; children: string }) => (
  <Text size="sm" fw={line.total ? 700 : undefined}>
    {children}
  </Text>
);

const BREAKDOWN_COLUMNS: DataColumn<BreakdownLine>[] = [
  {
    key: 'label',
    header: 'Part',
    cell: (line) => (
      <>
        <LineText line={line}>{line.label}</LineText>
        {line.note && (
          <Text size="xs" c="dimmed">
            {line.note}
          </Text>
        )}
      </>
    ),
  },
  {
    key: 'value',
    header: 'Value',
    align: 'right',
    cell: (line) => <LineText line={line}>{line.value}</LineText>,
  },
];

/** The quality score with its level; the info button shows how the score was reached. */
export function QualityScoreCard({ summary }: { summary: ExecutiveSummary }) {
  const [showBreakdown, setShowBreakdown] = useState(false);
  const color = QUALITY_COLORS[summary.level];
  const label = showBreakdown ? 'Hide the score calculation' : 'Show the score calculation';
  return (
    <Paper withBorder radius="md" p="md" h="100%" data-testid="quality-score">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
          Quality Score
        </Text>
        <Tooltip label={label}>
          <ActionIcon variant={showBreakdown ? 'light' : 'subtle'} size="sm" radius="xl" aria-label={label} aria-expanded={showBreakdown} onClick={() => setShowBreakdown((v) => !v)}>
            <InfoIcon />
          </ActionIcon>
        </Tooltip>
      </Group>
      <Center>
        <Stack align="center" gap={4}>
          <RingProgress
            size={130}
            thickness={12}
            roundCaps
            sections={[{ value: summary.score, color }]}
            label={
              <Text ta="center" fz={26} fw={800} c={color} data-testid="quality-score-value">
                {oneDecimal(summary.score)}
              </Text>
            }
          />
          <Badge color={color} variant="light" size="lg" data-testid="quality-level">
            {summary.level}
          </Badge>
        </Stack>
      </Center>
      {showBreakdown && (
        <Box mt="sm" data-testid="score-breakdown">
          <DataTable columns={BREAKDOWN_COLUMNS} rows={breakdown(summary)} rowKey={(line) => line.key} withoutHeader verticalSpacing={4} />
        </Box>
      )}
    </Paper>
  );
}

function InfoIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
      <circle cx="12" cy="12" r="9" />
      <path d="M12 11v5M12 8h.01" />
    </svg>
  );
}
