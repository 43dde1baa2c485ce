import { Badge, Grid, Group, Paper, SimpleGrid, Text, Title } from '@mantine/core';
import type { DashboardResponse } from '../../../../core/api/analytics.js';
import { formatDuration, oneDecimal, passRateColor, percent } from '../../lib/format.js';
import { periodChangeCaption, periodChanges } from '../../lib/period-change.js';
import { executiveSummary } from './executive-summary.js';
import { SummaryMetric } from './SummaryMetric.js';
import { QualityScoreCard } from './QualityScoreCard.js';
import { RiskAssessment } from './RiskAssessment.js';

/** The Executive Summary (docs/screens.md#dashboard): quality score, four metrics and the risks of the chosen window. */
export function ExecutiveSummaryPanel({ data, days }: { data: DashboardResponse; days: number }) {
  const summary = executiveSummary(data, days);
  const changes = periodChanges(data);
  return (
    <Paper withBorder radius="md" p="lg" data-testid="executive-summary">
      <Group justify="space-between" mb="md" wrap="wrap">
        <Title order={3}>Executive Summary</Title>
        <Badge variant="light" size="lg" data-testid="report-period">
          {summary.period}
        </Badge>
      </Group>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 5, lg: 3 }}>
          <QualityScoreCard summary={summary} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7, lg: 5 }}>
          <SimpleGrid cols={2} spacing="sm" h="100%">
            <SummaryMetric label="Pass Rate" value={percent(summary.passRate)} color={passRateColor(summary.passRate)} change={changes.passRate} />
            <SummaryMetric label="Tests/Day" value={oneDecimal(summary.testsPerDay)} change={changes.tests} />
            <SummaryMetric label="Avg Duration" value={formatDuration(summary.avgDuration)} change={changes.avgDuration} />
            <SummaryMetric label="Flaky Tests" value={String(summary.flakyCount)} change={changes.flaky} />
          </SimpleGrid>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <RiskAssessment risks={summary.risks} />
        </Grid.Col>
      </Grid>
      <Text size="xs" c="dimmed" mt="sm" data-testid="period-caption">
        {periodChangeCaption(data)}
      </Text>
    </Paper>
  );
}
