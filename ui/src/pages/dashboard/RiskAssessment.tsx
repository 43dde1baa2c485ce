import { Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import type { Risk } from './executive-summary.js';

const STYLE: Record<Risk['level'], { color: string; mark: string }> = {
  high: { color: 'red', mark: '!' },
  medium: { color: 'yellow', mark: '!' },
  healthy: { color: 'green', mark: '✓' },
};

/** The Risk Assessment list of the Executive Summary (rules in docs/screens.md#risk-assessment). */
export function RiskAssessment({ risks }: { risks: Risk[] }) {
  return (
    <Paper withBorder radius="md" p="md" h="100%" data-testid="risk-assessment">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700} mb="sm">
        Risk Assessment
      </Text>
      <Stack gap="sm" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
        {risks.map((risk) => (
          <Group key={risk.title} component="li" gap="sm" wrap="nowrap" align="flex-start">
            <ThemeIcon color={STYLE[risk.level].color} variant="light" radius="xl" size="md" aria-hidden="true">
              <Text fw={800} size="sm">
                {STYLE[risk.level].mark}
              </Text>
            </ThemeIcon>
            <div>
              <Text fw={600} size="sm">
                {risk.title}
              </Text>
              <Text size="xs" c="dimmed">
                {risk.detail}
              </Text>
            </div>
          </Group>
        ))}
        {risks.length === 0 && (
          <Text component="li" size="sm" c="dimmed">
            No significant risks in this period.
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
