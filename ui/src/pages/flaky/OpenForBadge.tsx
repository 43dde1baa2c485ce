import { Badge, Text, Tooltip } from '@mantine/core';
import type { TimeToFix } from '../../../../core/api/analytics.js';

const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;

/** What the dates behind the badge are: first and last flake, quarantine, fix. */
export function timeToFixLines(t: TimeToFix): string[] {
  return [
    `First flaked ${t.first_flaked}`,
    `Last flaked ${t.last_flaked}`,
    t.quarantined ? `Quarantined ${t.quarantined.slice(0, 10)}` : 'Never quarantined',
    t.fixed ? `Fixed ${t.fixed} (${days(t.days_to_fix ?? 0)} after its flakes began)` : `Open since ${t.open_since}`,
  ];
}

/** The flaky screen's time to fix of a test: open for N days, or fixed (docs/screens.md#time-to-fix). */
export function OpenForBadge({ timeToFix }: { timeToFix: TimeToFix | null | undefined }) {
  if (!timeToFix) {
    return (
      <Text size="sm" c="dimmed" data-testid="open-for">
        —
      </Text>
    );
  }
  const open = timeToFix.open_days !== null;
  return (
    <Tooltip label={timeToFixLines(timeToFix).join(' · ')} multiline maw={320}>
      <Badge color={open ? 'orange' : 'teal'} variant="light" size="sm" tt="none" style={{ overflow: 'visible' }} styles={{ label: { overflow: 'visible' } }} data-testid="open-for" data-open={open || undefined}>
        {open ? (timeToFix.open_days === 0 ? 'Open since today' : `Open ${days(timeToFix.open_days!)}`) : `Fixed in ${days(timeToFix.days_to_fix ?? 0)}`}
      </Badge>
    </Tooltip>
  );
}
