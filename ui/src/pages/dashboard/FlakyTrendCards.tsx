import { Paper, SimpleGrid, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { TrendCounts } from '../../../../core/api/analytics.js';
import { flakySeverityHref } from './flaky-links.js';

const CARDS = [
  { direction: 'declining', label: 'Getting Worse', color: 'red', arrow: '↘' },
  { direction: 'improving', label: 'Improving', color: 'green', arrow: '↗' },
  { direction: 'stable', label: 'Stable', color: 'blue', arrow: '→' },
  { direction: 'new', label: 'New Issues', color: 'orange', arrow: '✦' },
] as const;

/**
 * '7-Day Flaky Test Trends': the window's flaky tests per trend direction (counted by the
 * server over the same tests as the Most Critical list), each a way into the flaky screen.
 */
export function FlakyTrendCards({ counts, days, flakyCount }: { counts: TrendCounts; days: number; flakyCount: number }) {
  return (
    <Paper withBorder radius="md" p="lg">
      <Title order={3} mb="md">
        7-Day Flaky Test Trends
      </Title>
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md">
        {CARDS.map((card) => (
          <Paper
            key={card.direction}
            component={Link}
            to={flakySeverityHref(card.direction, days)}
            withBorder
            radius="md"
            p="md"
            aria-label={`${card.label}: ${counts[card.direction]}`}
            style={{ textDecoration: 'none', color: 'inherit', borderLeft: `4px solid var(--mantine-color-${card.color}-filled)` }}
          >
            <Text size="sm" c="dimmed" fw={600}>
              <span aria-hidden="true">{card.arrow} </span>
              {card.label}
            </Text>
            <Text fz={28} fw={700} c={card.color} data-testid="trend-count">
              {counts[card.direction]}
            </Text>
            <Text size="xs" c="dimmed">
              tests
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
      <Text size="xs" c="dimmed" mt="sm" data-testid="trend-caption">
        Of the {flakyCount} flaky {flakyCount === 1 ? 'test' : 'tests'} {days === 0 ? 'of all time' : `of the last ${days} days`}: the last 7 days against the 7 before. A test counts under each
        direction one of its browsers has; tests with no runs in the last 7 days are in none.
      </Text>
    </Paper>
  );
}
