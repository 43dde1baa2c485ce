import { Anchor, Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link, useNavigate } from 'react-router-dom';
import type { BrokenTestSummary, FlakyTestSummary } from '../../../../core/api/analytics.js';
import { BrowserLabel } from '../../components/BrowserLabel.js';
import { QuarantineBadge } from '../../components/QuarantineBadge.js';
import { useQuarantine } from '../../lib/quarantine.js';
import { DataTable, type DataColumn } from '../../components/DataTable.js';
import { fileName, truncate } from '../../lib/format.js';
import { brokenRuns } from './broken-text.js';
import { flakySeverityHref, flakyTestHref } from './flaky-links.js';
import { CriticalPassRate, CriticalTestName, CriticalTestStacked, RiskBadge } from './CriticalTestStacked.js';

/** docs/screens.md#dashboard: the first 5 flaky tests of the answer. */
const ROWS = 5;

/**
 * 'Most Critical Tests': each row opens that test on the flaky screen; on a phone each row
 * stacks its columns. Broken tests (failing every run) are not flaky, so they are listed apart,
 * above the table.
 */
export function MostCriticalTests({ tests, days, broken = [], brokenCount = 0 }: { tests: FlakyTestSummary[]; days: number; broken?: BrokenTestSummary[]; brokenCount?: number }) {
  const navigate = useNavigate();
  const quarantine = useQuarantine();
  const rows = tests.slice(0, ROWS);
  const quarantined = (test: FlakyTestSummary) => quarantine.entryFor(test.test_title, test.test_file, test.browser);
  const columns: DataColumn<FlakyTestSummary>[] = [
    { key: 'test', header: 'Test', maxWidth: 320, cell: (test) => <CriticalTestName test={test} href={flakyTestHref(test, days)} quarantined={quarantined(test)} /> },
    { key: 'browser', header: 'Browser', cell: (test) => <BrowserLabel browser={test.browser} /> },
    { key: 'rate', header: 'Pass Rate', align: 'right', cell: (test) => <CriticalPassRate test={test} /> },
    { key: 'risk', header: 'Risk Score', align: 'right', cell: (test) => <RiskBadge test={test} /> },
  ];
  return (
    <Paper withBorder radius="md" p="md" h="100%" data-testid="most-critical">
      <Group justify="space-between" mb="sm">
        <Title order={4}>Most Critical Tests</Title>
        <Anchor component={Link} to={flakySeverityHref('severe', days)} size="sm" fw={600}>
          View All
        </Anchor>
      </Group>
      {brokenCount > 0 && <BrokenTests tests={broken.slice(0, ROWS)} count={brokenCount} />}
      <DataTable
        columns={columns}
        rows={rows}
        rowKey={(test) => `${test.test_file}\u0000${test.test_title}\u0000${test.browser}`}
        empty={
          <Text c="dimmed" size="sm">
            No flaky tests in this period.
          </Text>
        }
        stacked={(test) => <CriticalTestStacked test={test} href={flakyTestHref(test, days)} quarantined={quarantined(test)} />}
        onRowClick={(test) => navigate(flakyTestHref(test, days))}
        stickyFirstColumn
        minWidth={480}
        highlightOnHover
      />
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
