import { Anchor, Container, Grid, SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { DashboardResponse } from '../../../core/api/analytics.js';
import { dashboard } from '../api/calls.js';
import { errorText } from '../api/client.js';
import { PageStates } from '../components/PageState.js';
import { useReloadOnTestDataUpdated } from '../lib/reload-on-test-data.js';
import { useApi } from '../lib/use-api.js';
import { parseDays } from '../lib/time-range.js';
import { BrowserHealthPanel } from './report/BrowserHealthPanel.js';
import { CriticalIssues } from './report/CriticalIssues.js';
import { KeyMetrics } from './report/KeyMetrics.js';
import { ReportQualityScore } from './report/ReportQualityScore.js';
import { QuickStats } from './report/QuickStats.js';
import { ReportFooter } from './report/ReportFooter.js';
import { ReportHeader } from './report/ReportHeader.js';
import { reportFigures } from './report/report-figures.js';
import { periodChangeCaption, periodChanges } from '../lib/period-change.js';
import classes from './report/report.module.css';

/** /report?days=&branch= : the executive report (of one branch's runs when given), outside the app layout so it prints as a page of its own. */
export function ReportPage() {
  const [params] = useSearchParams();
  const days = parseDays(params.get('days'));
  const branch = params.get('branch') || null;
  const { data, error, loading, reload } = useApi(() => dashboard(days, branch), [days, branch]);
  useReloadOnTestDataUpdated(reload);
  // The moment this report was put together, for its id and footer.
  const [generatedAt] = useState(() => new Date());

  const empty = data && (data.summary[0]?.total_tests ?? 0) === 0;
  return (
    <Container size="lg" py="xl" className={classes.page}>
      <ReportHeader days={days} branch={branch} />
      <PageStates
        error={error ? { text: `Failed to load report data: ${errorText(error)}`, onRetry: reload } : null}
        loading={!data || loading ? 'Generating report...' : null}
        empty={
          empty
            ? {
                title: branch === null ? 'No test results in this period' : `No test results on ${branch} in this period`,
                body: (
                  <Text c="dimmed">
                    <Anchor component={Link} to="/upload">
                      Upload Test Results
                    </Anchor>{' '}
                    to build a report.
                  </Text>
                ),
              }
            : null
        }
      >
        {data && <ReportContent data={data} days={days} generatedAt={generatedAt} />}
      </PageStates>
    </Container>
  );
}

/** The report's figures, issues, browsers and quick stats over one period. */
function ReportContent({ data, days, generatedAt }: { data: DashboardResponse; days: number; generatedAt: Date }) {
  const figures = reportFigures(data);
  const changes = periodChanges(data);
  return (
    <Stack gap="lg">
      <Grid gap="md" align="stretch">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <ReportQualityScore figures={figures} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <KeyMetrics figures={figures} changes={changes} />
        </Grid.Col>
      </Grid>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <CriticalIssues figures={figures} />
        <BrowserHealthPanel figures={figures} />
      </SimpleGrid>
      <QuickStats figures={figures} slowTests={data.slowTests} avgDurationChange={changes.avgDuration} />
      <Text size="xs" c="dimmed" data-testid="period-caption">
        {periodChangeCaption(data)}
      </Text>
      <ReportFooter days={days} generatedAt={generatedAt} />
    </Stack>
  );
}
