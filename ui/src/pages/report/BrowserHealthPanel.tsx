import { Badge, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { formatDuration, percent } from '../../lib/format.js';
import { TONE_COLORS, type ReportFigures } from './report-figures.js';
import classes from './report.module.css';
import { browserHealth } from '../../../../core/analytics/formulas.js';
import { HEALTH_COLORS, healthLabel } from '../browsers/browser-rows.js';
import { readableTextColor } from '../../lib/readable-color.js';

export function BrowserHealthPanel({ figures }: { figures: ReportFigures }) {
  return (
    <Paper withBorder radius="md" p="md" h="100%" className={classes.keepTogether} data-testid="browser-health">
      <Title order={4} mb="sm">
        Browser Health
      </Title>
      {figures.browsers.length === 0 && <Text c="dimmed">No browser results in this period.</Text>}
      <Stack gap="md">
        {figures.browsers.map((b) => {
          const color = TONE_COLORS[b.tone];
          return (
            <div key={b.browser} data-testid="browser-health-row">
              <Group justify="space-between" mb={4} wrap="nowrap">
                <Group gap="xs">
                  <Text fw={600}>{b.browser}</Text>
                  <Badge color={HEALTH_COLORS[browserHealth(b.passRate)]} variant="dot" size="sm" tt="none" data-testid="browser-health-label">
                    {healthLabel(browserHealth(b.passRate))}
                  </Badge>
                  {b.issue && (
                    <Badge color="red" variant="light" size="sm" tt="none">
                      Issue: {percent(b.failureShare * 100)} failing
                    </Badge>
                  )}
                </Group>
                <Text fw={700} c={readableTextColor(color)}>
                  {percent(b.passRate)}
                </Text>
              </Group>
              <Progress value={b.passRate} color={color} size="md" aria-label={`${b.browser} pass rate`} />
              <Text size="xs" c="dimmed" mt={2}>
                {b.failed.toLocaleString()} failed of {b.total.toLocaleString()} · avg {formatDuration(b.avgDuration)}
              </Text>
            </div>
          );
        })}
      </Stack>
      {figures.browsers.length > 0 && (
        <Text size="xs" c="dimmed" mt="sm" data-testid="browser-health-note">
          Labels as on the dashboard and Browser Analysis (90/80/70 %). The report is stricter: its colours use 95 and 90 %, and it flags a browser that fails over
          10 % of its tests.
        </Text>
      )}
    </Paper>
  );
}
