import { Badge, Box, Group, Paper, SimpleGrid, Text, Title } from '@mantine/core';
import { BrowserLabel } from '../../components/BrowserLabel.js';
import { DataTable, type DataColumn } from '../../components/DataTable.js';
import { fractionPercent } from '../../lib/format.js';
import type { ReportFigures } from './report-figures.js';
import classes from './report.module.css';

const SHOWN = 5;

/**
 * Tests that failed every run (broken), then critical flaky tests (pass rate 0.5 or less) and
 * what they cost, per the report estimates of flaky tests (docs/screens.md#report-estimates).
 */
export function CriticalIssues({ figures }: { figures: ReportFigures }) {
  const count = figures.criticalCount;
  // The count is of tests; the rows are a test on a browser, so one test may fill several.
  const rows = figures.critical.slice(0, SHOWN);
  const more = count - new Set(rows.map((t) => `${t.test_file}\u0000${t.test_title}`)).size;
  return (
    <Paper withBorder radius="md" p="md" h="100%" className={classes.keepTogether} data-testid="critical-issues">
      <Group justify="space-between" mb="sm">
        <Title order={4}>Critical Issues</Title>
        <Badge color={count > 0 ? 'red' : 'green'} variant="light" tt="none" data-testid="critical-count">
          {count} critical
        </Badge>
      </Group>
      <BrokenIssues figures={figures} />
      {count === 0 ? (
        <Text c="dimmed">{figures.brokenCount > 0 ? 'No flaky test fails half of its runs or more.' : 'No critical issues: no test fails half of its runs or more.'}</Text>
      ) : (
        <>
          <Text size="sm" mb="xs">
            {count} flaky {count === 1 ? 'test fails' : 'tests fail'} ≥50% of the time.
          </Text>
          <TestRows testId="critical-tests" rows={rows.map((t) => ({ ...t, figure: fractionPercent(t.pass_rate) }))} />
          {more > 0 && (
            <Text size="xs" c="dimmed" mb="sm" data-testid="critical-more">
              and {more} more {more === 1 ? 'test' : 'tests'}
            </Text>
          )}
        </>
      )}
      <SimpleGrid cols={2} mt="xs">
        <div>
          <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
            Estimated cost
          </Text>
          <Text fw={700} data-testid="critical-cost">
            ${figures.costPerWeek.toLocaleString('en-US')}/week
          </Text>
        </div>
        <div>
          <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
            Estimated fix time
          </Text>
          <Text fw={700} data-testid="fix-days">
            {figures.fixDays} {figures.fixDays === 1 ? 'day' : 'days'}
          </Text>
        </div>
      </SimpleGrid>
    </Paper>
  );
}

function BrokenIssues({ figures }: { figures: ReportFigures }) {
  const count = figures.brokenCount;
  if (count === 0) return null;
  const rows = figures.broken.slice(0, SHOWN);
  const more = count - new Set(rows.map((t) => `${t.test_file}\u0000${t.test_title}`)).size;
  return (
    <div data-testid="report-broken">
      <Text size="sm" mb="xs" fw={600} c="red">
        {count} {count === 1 ? 'test fails' : 'tests fail'} every run (broken, not flaky).
      </Text>
      <TestRows rows={rows.map((t) => ({ ...t, figure: `${t.failed_runs}/${t.failed_runs}`, figureTitle: `failed ${t.failed_runs} of ${t.failed_runs} runs` }))} />
      {more > 0 && (
        <Text size="xs" c="dimmed" mb="sm">
          and {more} more {more === 1 ? 'test' : 'tests'}
        </Text>
      )}
    </div>
  );
}

interface TestRow {
  test_file: string;
  test_title: string;
  browser: string;
  figure: string;
  figureTitle?: string;
}

const TEST_COLUMNS: DataColumn<TestRow>[] = [
  {
    key: 'test',
    header: 'Test',
    cell: (t) => (
      <Text size="sm" title={t.test_title} truncate="end">
        {t.test_title}
      </Text>
    ),
  },
  { key: 'browser', header: 'Browser', width: 110, cell: (t) => <BrowserLabel browser={t.browser} /> },
  {
    key: 'figure',
    header: 'Figure',
    width: 64,
    align: 'right',
    cell: (t) => (
      <Text size="sm" c="red" fw={600} title={t.figureTitle}>
        {t.figure}
      </Text>
    ),
  },
];

/** A test on a browser per row, with the one figure that makes it an issue, in red. */
function TestRows({ rows, testId }: { rows: TestRow[]; testId?: string }) {
  return (
    <Box mb="sm">
      <DataTable columns={TEST_COLUMNS} rows={rows} rowKey={(t) => `${t.test_file}\u0000${t.test_title}\u0000${t.browser}`} testId={testId} verticalSpacing={4} horizontalSpacing="xs" withoutHeader fixedLayout />
    </Box>
  );
}
