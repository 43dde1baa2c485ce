import { Anchor, Badge, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useNavigate } from 'react-router-dom';
import type { BrokenTestSummary, FlakyTestSummary } from '../../../../core/api/analytics.js';
import { riskLevel, riskScore } from '../../../../core/analytics/formulas.js';
import { BrowserLabel } from '../../components/BrowserLabel.js';
import { QuarantineBadge } from '../../components/QuarantineBadge.js';
import { useQuarantine } from '../../lib/quarantine.js';
import { fileName, flakyPassRateColor, fractionPercent, truncate } from '../../lib/format.js';
import { brokenRuns } from './broken-text.js';
import { flakySeverityHref, flakyTestHref } from './flaky-links.js';
import sticky from '../../components/sticky-column.module.css';
import { usePhone } from '../../lib/use-phone.js';
import { CriticalTestName, CriticalTestStackedRow } from './CriticalTestStackedRow.js';
import { RISK_COLORS } from './risk-colors.js';

/** docs/screens.md#dashboard: the first 5 flaky tests of the answer. */
const ROWS = 5;

/**
 * 'Most Critical Tests': each row opens that test on the flaky screen; on a phone each row
 * stacks its columns. Broken tests (failing every run) are not flaky, so they are listed apart,
 * above the table.
 */
export function MostCriticalTests({ tests, days, broken = [], brokenCount = 0 }: { tests: FlakyTestSummary[]; days: number; broken?: BrokenTestSummary[]; brokenCount?: number }) {
  const navigate = useNavigate();
  const phone = usePhone();
  const quarantine = useQuarantine();
  const rows = tests.slice(0, ROWS);
  return (
    <Paper withBorder radius="md" p="md" h="100%" data-testid="most-critical">
      <Group justify="space-between" mb="sm">
        <Title order={4}>Most Critical Tests</Title>
        <Anchor component={Link} to={flakySeverityHref('severe', days)} size="sm" fw={600}>
          View All
        </Anchor>
      </Group>
      {brokenCount > 0 && <BrokenTests tests={broken.slice(0, ROWS)} count={brokenCount} />}
      {rows.length === 0 ? (
        <Text c="dimmed" size="sm">
          No flaky tests in this period.
        </Text>
      ) : phone ? (
        <Table highlightOnHover verticalSpacing="xs" data-layout="stacked">
          <Table.Tbody>
            {rows.map((test) => {
              const href = flakyTestHref(test, days);
              return (
                <CriticalTestStackedRow
                  key={`${test.test_file}\u0000${test.test_title}\u0000${test.browser}`}
                  test={test}
                  href={href}
                  quarantined={quarantine.entryFor(test.test_title, test.test_file, test.browser)}
                  onOpen={() => navigate(href)}
                />
              );
            })}
          </Table.Tbody>
        </Table>
      ) : (
        <Table.ScrollContainer minWidth={480}>
          <Table highlightOnHover verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th className={sticky.sticky}>Test</Table.Th>
                <Table.Th>Browser</Table.Th>
                <Table.Th ta="right">Pass Rate</Table.Th>
                <Table.Th ta="right">Risk Score</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((test) => {
                const href = flakyTestHref(test, days);
                const score = riskScore(test.pass_rate, test.total_runs);
                const quarantined = quarantine.entryFor(test.test_title, test.test_file, test.browser);
                return (
                  <Table.Tr key={`${test.test_file}\u0000${test.test_title}\u0000${test.browser}`} style={{ cursor: 'pointer' }} onClick={() => navigate(href)}>
                    <Table.Td maw={320} className={sticky.sticky}>
                      <CriticalTestName test={test} href={href} quarantined={quarantined} />
                    </Table.Td>
                    <Table.Td>
                      <BrowserLabel browser={test.browser} />
                    </Table.Td>
                    <Table.Td ta="right">
                      <Text size="sm" fw={600} c={flakyPassRateColor(test.pass_rate)}>
                        {fractionPercent(test.pass_rate)}
                      </Text>
                      {test.passed_on_retry > 0 && test.final_pass_rate !== test.pass_rate && (
                        <Text size="xs" c="dimmed" title="Pass rate of first attempts; after retries in the second line" data-testid="final-pass-rate">
                          {fractionPercent(test.final_pass_rate)} after retries
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td ta="right">
                      <Badge color={RISK_COLORS[riskLevel(score)]} variant="light" title={riskLevel(score)}>
                        {score}
                      </Badge>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}

function BrokenTests({ tests, count }: { tests: BrokenTestSummary[]; count: number }) {
  const quarantine = useQuarantine();
  const more = count - new Set(tests.map((t) => `${t.test_file}\u0000${t.test_title}`)).size;
  return (
    <Stack gap={6} mb="md" data-testid="broken-tests">
      <Group gap="xs">
        <Text fw={700} size="sm">
          Failing every run
        </Text>
        <Badge color="red" variant="light" tt="none" data-testid="broken-count">
          {count} broken
        </Badge>
      </Group>
      {tests.map((test) => {
        const quarantined = quarantine.entryFor(test.test_title, test.test_file, test.browser);
        return (
          <Group key={`${test.test_file}\u0000${test.test_title}\u0000${test.browser}`} justify="space-between" wrap="nowrap" gap="sm" align="flex-start">
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Text size="sm" fw={500} title={test.test_title} style={{ overflowWrap: 'anywhere' }}>
                {truncate(test.test_title, 60)}
              </Text>
              <Text size="xs" c="dimmed" truncate>
                {fileName(test.test_file)} · failed {brokenRuns(test.failed_runs)}
              </Text>
              {quarantined && <QuarantineBadge entry={quarantined} />}
            </Stack>
            <BrowserLabel browser={test.browser} />
          </Group>
        );
      })}
      {more > 0 && (
        <Text size="xs" c="dimmed">
          and {more} more {more === 1 ? 'test' : 'tests'}
        </Text>
      )}
    </Stack>
  );
}
