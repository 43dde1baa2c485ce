import { SimpleGrid } from '@mantine/core';
import type { Severity } from '../../../../core/analytics/formulas.js';
import { StatCard } from '../../components/StatCard.js';
import type { FlakyFilter } from './flaky-filter.js';

const CARDS: ReadonlyArray<{ filter: 'all' | Severity; label: string; hint: string; color?: string }> = [
  { filter: 'all', label: 'All Tests', hint: 'Every flaky test' },
  { filter: 'severe', label: 'Critical', hint: 'Pass rate 50% or less', color: 'red' },
  { filter: 'moderate', label: 'Warning', hint: 'Pass rate above 50%, below 80%', color: 'yellow' },
  { filter: 'minor', label: 'Stable', hint: 'Pass rate 80% or more', color: 'green' },
];

/** The four clickable counts: clicking one filters by it, clicking the active one goes back to all. */
export function FlakyStatCards({ counts, filter, onSelect }: { counts: Record<'all' | Severity, number>; filter: FlakyFilter; onSelect(filter: FlakyFilter): void }) {
  return (
    <SimpleGrid cols={{ base: 2, md: 4 }} mb="md">
      {CARDS.map((card) => (
        <StatCard key={card.filter} label={card.label} value={counts[card.filter]} color={card.color} hint={card.hint} active={filter === card.filter} onClick={() => onSelect(card.filter)} />
      ))}
    </SimpleGrid>
  );
}
