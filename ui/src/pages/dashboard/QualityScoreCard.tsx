import { ActionIcon, Badge, Center, Group, Paper, RingProgress, Stack, Table, Text, Tooltip } from '@mantine/core';
import { useState } from 'react';
import { oneDecimal, percent } from '../../lib/format.js';
import { QUALITY_COLORS, type ExecutiveSummary } from './executive-summary.js';

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
        <Table mt="sm" fz="sm" verticalSpacing={4} data-testid="score-breakdown">
          <Table.Tbody>
            <Table.Tr>
              <Table.Td>Pass rate</Table.Td>
              <Table.Td ta="right">{percent(summary.passRate)}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Td>
                Flaky impact
                <Text size="xs" c="dimmed">
                  {summary.flakyCount} flaky / {summary.totalTests.toLocaleString()} tests × 100, at most 20
                </Text>
              </Table.Td>
              <Table.Td ta="right">-{oneDecimal(summary.flakyImpact)}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Td fw={700}>Result</Table.Td>
              <Table.Td ta="right" fw={700}>
                {oneDecimal(summary.score)}
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
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
