import { Paper, SimpleGrid, Text, Title } from '@mantine/core';
import { trendAnalysis } from '../../../../core/analytics/formulas.js';
import { oneDecimal, percent } from '../../lib/format.js';

const DIRECTION_COLOR = { Improving: 'green', Declining: 'red', Stable: 'gray' } as const;
const VOLATILITY_COLOR = { Low: 'green', Moderate: 'yellow', High: 'red' } as const;

function Item({ label, value, detail, color }: { label: string; value: string; detail: string; color: string }) {
  return (
    <Paper withBorder p="sm" radius="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fw={700} size="lg" c={color}>
        {value}
      </Text>
      <Text size="xs" c="dimmed">
        {detail}
      </Text>
    </Paper>
  );
}

/** docs/screens.md#trend-analysis: slope in %/day, volatility, and the average of the last 7 days. */
export function TrendAnalysisPanel({ passRatesPercent }: { passRatesPercent: readonly number[] }) {
  const analysis = trendAnalysis(passRatesPercent);
  const slope = `${analysis.slope > 0 ? '+' : ''}${oneDecimal(analysis.slope)}% per day`;
  return (
    <div data-testid="trend-analysis">
      <Title order={5} mb="xs">
        Trend Analysis
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Item label="Trend" value={analysis.direction} detail={slope} color={DIRECTION_COLOR[analysis.direction]} />
        <Item label="Volatility" value={analysis.volatilityLevel} detail={`Standard deviation ${oneDecimal(analysis.volatility)} points`} color={VOLATILITY_COLOR[analysis.volatilityLevel]} />
        <Item label="Recent performance" value={percent(analysis.recent)} detail="Average pass rate of the last 7 days" color="var(--mantine-color-text)" />
      </SimpleGrid>
    </div>
  );
}
