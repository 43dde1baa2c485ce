import { Badge, Group, Paper, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { BrowserComparison } from '../../../../core/api/analytics.js';
import { BrowserLabel } from '../../components/BrowserLabel.js';
import { formatDuration, percent } from '../../lib/format.js';
import { browserRows, HEALTH_COLORS, healthLabel } from '../browsers/browser-rows.js';

/** 'Browser Health Summary': one card per browser with its pass rate, failures and average duration. */
export function BrowserHealthGrid({ browsers }: { browsers: BrowserComparison[] }) {
  return (
    <Paper withBorder radius="md" p="md" data-testid="browser-health">
      <Title order={4} mb="sm">
        Browser Health Summary
      </Title>
      {browsers.length === 0 ? (
        <Text c="dimmed" size="sm">
          No browser results in this period.
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md">
          {browserRows(browsers).map((b) => {
            // Same rule as the Pass Rate (%) card: passed over every result, skipped included.
            const rate = b.passRate;
            const health = { label: healthLabel(b.health), color: HEALTH_COLORS[b.health] };
            return (
              <Paper key={b.browser} withBorder radius="md" p="md" data-testid="browser-health-card" aria-label={b.browser}>
                <Group justify="space-between" mb="xs" wrap="nowrap">
                  <BrowserLabel browser={b.browser} />
                  <Badge color={health.color} variant="dot">
                    {health.label}
                  </Badge>
                </Group>
                <Text fz={26} fw={700} c={health.color} data-testid="browser-pass-rate">
                  {percent(rate)}
                </Text>
                <Progress value={rate} color={health.color} size="sm" mb="sm" aria-label={`${b.browser} pass rate`} />
                <Stack gap={2}>
                  <Group justify="space-between">
                    <Text size="sm" c="dimmed">
                      Failures
                    </Text>
                    <Text size="sm" fw={600} data-testid="browser-failures">
                      {b.failed.toLocaleString()}
                    </Text>
                  </Group>
                  <Group justify="space-between">
                    <Text size="sm" c="dimmed">
                      Avg Duration
                    </Text>
                    <Text size="sm" fw={600} data-testid="browser-duration">
                      {formatDuration(b.avg_duration)}
                    </Text>
                  </Group>
                </Stack>
              </Paper>
            );
          })}
        </SimpleGrid>
      )}
    </Paper>
  );
}
