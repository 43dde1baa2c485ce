import { Badge, Group, Paper, Text, Title } from '@mantine/core';
import type { ErrorCategory } from '../../../../core/errors/categories.js';
import { ErrorPatternItem } from './ErrorPatternItem.js';
import type { CategoryGroup } from './pattern-groups.js';

const COLORS: Record<ErrorCategory, string> = {
  'Test Timeout': 'orange',
  'Element Wait Timeout': 'cyan',
  'Page Load Timeout': 'grape',
  'Assertion Error': 'red',
  'Browser Protocol Error': 'violet',
  'Navigation Error': 'blue',
  other: 'gray',
};

export function ErrorCategoryCard({ group }: { group: CategoryGroup }) {
  const color = COLORS[group.category];
  return (
    <Paper withBorder radius="md" p="md" data-testid="error-category" style={{ borderLeft: `4px solid var(--mantine-color-${color}-6)` }}>
      <Group justify="space-between" mb="xs" wrap="wrap">
        <Title order={4}>{group.label}</Title>
        <Group gap="xs">
          <Badge color={color} variant="light" tt="none">
            {group.patterns.length} {group.patterns.length === 1 ? 'pattern' : 'patterns'}
          </Badge>
          <Badge color={color} variant="outline" tt="none">
            {group.occurrences.toLocaleString()} {group.occurrences === 1 ? 'failure' : 'failures'}
          </Badge>
        </Group>
      </Group>
      {group.patterns.length === 0 && <Text c="dimmed">No patterns</Text>}
      {group.patterns.map((p) => (
        <ErrorPatternItem key={p.fingerprint} pattern={p} />
      ))}
    </Paper>
  );
}
