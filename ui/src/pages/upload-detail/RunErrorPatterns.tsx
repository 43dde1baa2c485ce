import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ErrorPatternCount } from '../../../../core/errors/first-line.js';

/** 'Error Patterns': the five most frequent error first lines of this run (counted by the server). */
export function RunErrorPatterns({ patterns }: { patterns: readonly ErrorPatternCount[] }) {
  return (
    <Paper withBorder p="md" radius="md" h="100%" data-testid="run-error-patterns">
      <Title order={4} mb="sm">
        Error Patterns
      </Title>
      {patterns.length === 0 ? (
        <Text c="dimmed" size="sm">
          No errors in this run.
        </Text>
      ) : (
        <Stack gap="xs">
          {patterns.map((p) => (
            <Group key={p.pattern} justify="space-between" wrap="nowrap" gap="sm" align="flex-start" data-testid="error-pattern">
              <Text size="sm" ff="monospace" style={{ wordBreak: 'break-word', minWidth: 0 }}>
                {p.pattern}
              </Text>
              <Badge color="red" variant="light" style={{ flexShrink: 0 }}>
                {p.count}
              </Badge>
            </Group>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
