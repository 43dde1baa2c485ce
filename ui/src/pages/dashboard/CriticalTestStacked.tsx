import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { FlakyTestSummary } from '../../../../core/api/analytics.js';
import { riskLevel, riskScore } from '../../../../core/analytics/formulas.js';
import type { QuarantineView } from '../../../../core/api/quarantine.js';
import { BrowserLabel } from '../../components/BrowserLabel.js';
import { QuarantineBadge } from '../../components/QuarantineBadge.js';
import { RowFigures } from '../../components/RowFigures.js';
import { fileName, flakyPassRateColor, fractionPercent, truncate } from '../../lib/format.js';
import { RISK_COLORS } from './risk-colors.js';

/** A most critical test on a phone: the test and its browser on top, pass rate and risk score under their column names. */
export function CriticalTestStacked({ test, href, quarantined }: { test: FlakyTestSummary; href: string; quarantined: QuarantineView | null }) {
  return (
    <Stack gap={6}>
      <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
        <Stack gap={0} style={{ minWidth: 0 }}>
          <CriticalTestName test={test} href={href} quarantined={quarantined} />
        </Stack>
        <BrowserLabel browser={test.browser} />
      </Group>
      <RowFigures
        figures={[
          { label: 'Pass Rate', value: <CriticalPassRate test={test} inherit /> },
          { label: 'Risk Score', value: <RiskBadge test={test} /> },
        ]}
      />
    </Stack>
  );
}

/** The test's title (a link to it on the flaky screen), its file, and its quarantine entry: on a phone and in the table alike. */
export function CriticalTestName({ test, href, quarantined }: { test: FlakyTestSummary; href: string; quarantined: QuarantineView | null }) {
  return (
    <>
      <Anchor component={Link} to={href} size="sm" fw={500} title={test.test_title} style={{ overflowWrap: 'anywhere' }}>
        {truncate(test.test_title, 60)}
      </Anchor>
      <Text size="xs" c="dimmed" truncate>
        {fileName(test.test_file)}
      </Text>
      {quarantined && <QuarantineBadge entry={quarantined} />}
    </>
  );
}

/** First-attempt pass rate, and the rate after retries under it when retries changed it. `inherit` takes the figure's size from a stacked row. */
export function CriticalPassRate({ test, inherit = false }: { test: FlakyTestSummary; inherit?: boolean }) {
  const afterRetries = test.passed_on_retry > 0 && test.final_pass_rate !== test.pass_rate && (
    <Text size="xs" c="dimmed" fw={inherit ? 400 : undefined} title={inherit ? undefined : 'Pass rate of first attempts; after retries in the second line'} data-testid="final-pass-rate">
      {fractionPercent(test.final_pass_rate)} after retries
    </Text>
  );
  return (
    <>
      {inherit ? (
        <Text span inherit c={flakyPassRateColor(test.pass_rate)}>
          {fractionPercent(test.pass_rate)}
        </Text>
      ) : (
        <Text size="sm" fw={600} c={flakyPassRateColor(test.pass_rate)}>
          {fractionPercent(test.pass_rate)}
        </Text>
      )}
      {afterRetries}
    </>
  );
}

export function RiskBadge({ test }: { test: FlakyTestSummary }) {
  const score = riskScore(test.pass_rate, test.total_runs);
  return (
    <Badge color={RISK_COLORS[riskLevel(score)]} variant="light" title={riskLevel(score)}>
      {score}
    </Badge>
  );
}
