import { Alert, Anchor, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { DashboardResponse } from '../../../../core/api/analytics.js';
import { passRatePercent } from '../../../../core/analytics/formulas.js';
import { fractionPercent, percent } from '../../lib/format.js';
import { brokenRuns } from './broken-text.js';
import { flakySeverityHref } from './flaky-links.js';
import { healthAlerts, type HealthAlert } from './health-alerts.js';

/** 'QA Health Alerts' (rules in docs/screens.md#health-alerts); a calm line when nothing needs attention. */
export function HealthAlerts({ data }: { data: DashboardResponse }) {
  const alerts = healthAlerts(data);
  const fired = new Set(alerts.map((a) => a.kind));
  const summary = data.summary[0];
  // The rules that did not fire, so an answer with one alert still says what else was checked.
  const passing = [
    !fired.has('broken') && 'No test fails every run',
    !fired.has('critical-flaky') && !fired.has('broken') && 'No test fails half of its runs or more',
    !fired.has('browser-issues') && 'Every browser passes more than it fails',
    !fired.has('low-pass-rate') && `Overall pass rate ${percent(passRatePercent(summary?.total_passed ?? 0, summary?.total_tests ?? 0))} (target 80%)`,
  ].filter((text): text is string => typeof text === 'string');
  return (
    <Paper withBorder radius="md" p="md" h="100%" data-testid="health-alerts">
      <Title order={4} mb="sm">
        QA Health Alerts
      </Title>
      <Stack gap="sm">
        {alerts.map((alert) => (
          <AlertItem key={alert.kind} alert={alert} days={data.days} />
        ))}
        {alerts.length === 0 && (
          <Alert color="green" variant="light" title="No health alerts">
            No test fails every run; flaky tests, browsers and the overall pass rate are all within limits.
          </Alert>
        )}
        {alerts.length > 0 && passing.length > 0 && (
          <Stack gap={6} mt="xs" data-testid="passing-checks">
            {passing.map((text) => (
              <Group key={text} gap="xs" wrap="nowrap">
                <ThemeIcon color="green" variant="light" radius="xl" size="sm" aria-hidden="true">
                  <Text size="xs" fw={800}>
                    ✓
                  </Text>
                </ThemeIcon>
                <Text size="sm" c="dimmed">
                  {text}
                </Text>
              </Group>
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

function AlertItem({ alert, days }: { alert: HealthAlert; days: number }) {
  if (alert.kind === 'broken') {
    const more = alert.count - new Set(alert.worst.map((t) => `${t.test_file}\u0000${t.test_title}`)).size;
    return (
      <Alert color="red" variant="light" title={alert.count > 1 ? `${alert.count} Broken Tests` : 'Broken Test'} data-testid="alert-broken">
        <Text size="sm">Failing every run in this period (not flaky: no run passed):</Text>
        <Stack gap={2} mt={4}>
          {alert.worst.map((t) => (
            <Text key={`${t.test_file}\u0000${t.test_title}\u0000${t.browser}`} size="sm" style={{ overflowWrap: 'anywhere' }}>
              <Text span fw={600}>
                {t.test_title}
              </Text>{' '}
              ({t.browser}): failed {brokenRuns(t.failed_runs)}
            </Text>
          ))}
        </Stack>
        {more > 0 && (
          <Text size="xs" c="dimmed" mt={4}>
            and {more} more {more === 1 ? 'test' : 'tests'}
          </Text>
        )}
      </Alert>
    );
  }
  if (alert.kind === 'critical-flaky') {
    const { worst } = alert;
    const several = alert.count > 1;
    return (
      <Alert color="red" variant="light" title={several ? `${alert.count} Critical Flaky Tests` : 'Critical Flaky Test'} data-testid="alert-critical-flaky">
        <Text size="sm">
          {several ? 'Most critical: ' : ''}
          <Text span fw={600}>
            {worst.test_title}
          </Text>{' '}
          ({worst.browser}) is failing ≥50% of the time (pass rate {fractionPercent(worst.pass_rate)}).
        </Text>
        <Group gap="md" mt={6}>
          <Anchor component={Link} to={alert.worstHref} size="sm" fw={600}>
            {several ? 'View Worst' : 'View Test'}
          </Anchor>
          {several && (
            <Anchor component={Link} to={flakySeverityHref('severe', days)} size="sm" fw={600}>
              View All
            </Anchor>
          )}
        </Group>
      </Alert>
    );
  }
  if (alert.kind === 'browser-issues') {
    return (
      <Alert color="orange" variant="light" title="Browser Issues Detected" data-testid="alert-browser-issues">
        <Text size="sm">
          More failures than passes on {alert.browsers.map((b) => b.browser).join(', ')}.
        </Text>
        <Anchor component={Link} to="/browser-analysis" size="sm" fw={600} mt={6} display="inline-block">
          View Browser Analysis
        </Anchor>
      </Alert>
    );
  }
  return (
    <Alert color="yellow" variant="light" title="Low Overall Pass Rate" data-testid="alert-low-pass-rate">
      <Text size="sm">The overall pass rate is {percent(alert.passRate)}, below the 80% target.</Text>
      <Anchor component={Link} to="/trends" size="sm" fw={600} mt={6} display="inline-block">
        View Trends
      </Anchor>
    </Alert>
  );
}
