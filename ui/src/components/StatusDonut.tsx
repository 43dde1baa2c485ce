import { DonutChart } from '@mantine/charts';
import { Center, Group, Paper, Stack, Text, Title } from '@mantine/core';

const SEGMENTS = [
  { key: 'passed', name: 'Passed', color: 'green.6' },
  { key: 'failed', name: 'Failed', color: 'red.6' },
  { key: 'skipped', name: 'Skipped', color: 'gray.5' },
] as const;

/** The 'Test Status Distribution' doughnut (Passed, Failed, Skipped) of the dashboard and a run's page. */
export function StatusDonut({ passed, failed, skipped, title = 'Test Status Distribution' }: { passed: number; failed: number; skipped: number; title?: string }) {
  const counts = { passed, failed, skipped };
  const total = passed + failed + skipped;
  const data = SEGMENTS.map((s) => ({ name: s.name, value: counts[s.key], color: s.color })).filter((d) => d.value > 0);
  return (
    <Paper withBorder p="md" radius="md" h="100%" data-testid="status-donut">
      <Title order={4} mb="sm">
        {title}
      </Title>
      {total === 0 ? (
        <Center h={200}>
          <Text c="dimmed">No test results</Text>
        </Center>
      ) : (
        <Stack align="center" gap="sm">
          <DonutChart data={data} size={200} thickness={32} withTooltip tooltipDataSource="segment" chartLabel={total.toLocaleString()} paddingAngle={data.length > 1 ? 2 : 0} />
          <Group gap="md" justify="center">
            {SEGMENTS.map((s) => (
              <Group key={s.key} gap={6} wrap="nowrap">
                <span aria-hidden="true" style={{ width: 10, height: 10, borderRadius: 2, background: `var(--mantine-color-${s.color.replace('.', '-')})` }} />
                <Text size="sm">
                  {s.name}: {counts[s.key].toLocaleString()}
                </Text>
              </Group>
            ))}
          </Group>
        </Stack>
      )}
    </Paper>
  );
}
