import { Badge, Group, Text, UnstyledButton } from '@mantine/core';
import type { TrendDirection } from '../../../../core/analytics/formulas.js';
import { isCriticalTrend, trendSegments, type Trend } from './flaky-filter.js';

const LOOK: Record<TrendDirection, { label: string; color: string; arrow: string }> = {
  declining: { label: 'Declining', color: 'red', arrow: '↘' },
  improving: { label: 'Improving', color: 'green', arrow: '↗' },
  stable: { label: 'Stable', color: 'gray', arrow: '→' },
  new: { label: 'New', color: 'blue', arrow: '★' },
};

function signed(percentage: number): string {
  return `${percentage > 0 ? '+' : ''}${percentage.toFixed(1)}%`;
}

/**
 * A trend with its 5-segment magnitude bar (docs/screens.md#flaky-test-analysis). With `onClick` it is a button
 * that sets the trend filter; the click does not reach the row under it.
 */
export function TrendBadge({ trend, onClick }: { trend: Trend | null; onClick?: (direction: TrendDirection) => void }) {
  if (trend === null) {
    return (
      <Text size="xs" c="dimmed">
        No trend data
      </Text>
    );
  }
  const look = LOOK[trend.direction];
  const critical = isCriticalTrend(trend);
  const filled = trendSegments(trend.percentage);
  const text = trend.direction === 'new' ? look.label : `${look.label} ${signed(trend.percentage)}`;
  const content = (
    <Group gap={6} wrap="nowrap" data-testid="trend-badge" data-direction={trend.direction} data-critical={critical || undefined} data-segments={filled}>
      <Badge color={look.color} variant={critical ? 'filled' : 'light'} tt="none" style={{ flexShrink: 0, overflow: 'visible' }} leftSection={<span aria-hidden="true">{look.arrow}</span>}>
        {text}
      </Badge>
      <Group gap={2} wrap="nowrap" aria-hidden="true">
        {Array.from({ length: 5 }, (_, i) => (
          <span
            key={i}
            style={{
              width: 5,
              height: 12,
              borderRadius: 1,
              background: i < filled ? `var(--mantine-color-${look.color}-${critical ? 8 : 5})` : 'var(--mantine-color-default-border)',
            }}
          />
        ))}
      </Group>
    </Group>
  );
  if (!onClick) return content;
  return (
    <UnstyledButton
      aria-label={`Filter by ${look.label.toLowerCase()} trend`}
      onClick={(event) => {
        event.stopPropagation();
        onClick(trend.direction);
      }}
      onKeyDown={(event) => event.stopPropagation()}
    >
      {content}
    </UnstyledButton>
  );
}
