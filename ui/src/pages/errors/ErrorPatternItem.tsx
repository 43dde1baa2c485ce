import { Badge, Box, Button, Code, Collapse, Group, List, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { ErrorPattern } from '../../../../core/api/analytics.js';
import { stripAnsi } from '../../../../core/ansi.js';
import { BrowserLabel } from '../../components/BrowserLabel.js';
import { affectedTests, splitList } from './pattern-groups.js';

/** One pattern: what it says, how often, where, which tests, and the whole message on demand. */
export function ErrorPatternItem({ pattern }: { pattern: ErrorPattern }) {
  const [open, setOpen] = useState(false);
  const tests = affectedTests(pattern.affected_tests, pattern.affected_test_count, 3, pattern.affected_test_titles);
  const browsers = splitList(pattern.affected_browsers);
  return (
    <Box data-testid="error-pattern" py="sm" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="md">
        <Text fw={600} ff="monospace" size="sm" style={{ wordBreak: 'break-word' }} data-testid="pattern-summary">
          {stripAnsi(pattern.error_summary)}
        </Text>
        <Badge color="red" variant="light" size="lg" tt="none" style={{ flexShrink: 0 }} data-testid="pattern-count">
          {pattern.frequency.toLocaleString()} {pattern.frequency === 1 ? 'occurrence' : 'occurrences'}
        </Badge>
      </Group>
      <Group gap="xs" mt="xs">
        <Text size="xs" c="dimmed">
          Browsers:
        </Text>
        {browsers.map((b) => (
          <BrowserLabel key={b} browser={b} />
        ))}
      </Group>
      <Stack gap={2} mt="xs">
        <Text size="xs" c="dimmed">
          Affected tests:
        </Text>
        <List size="sm" spacing={0} data-testid="affected-tests">
          {tests.first.map((t, i) => (
            <List.Item key={`${i}-${t}`}>{t}</List.Item>
          ))}
        </List>
        {tests.more > 0 && (
          <Text size="sm" c="dimmed" fs="italic">
            and {tests.more} more
          </Text>
        )}
      </Stack>
      <Button variant="subtle" size="compact-sm" mt="xs" px={0} onClick={() => setOpen((o) => !o)} aria-expanded={open}>
        {open ? 'Hide full error' : 'Show full error'}
      </Button>
      <Collapse expanded={open}>
        <Code block mt="xs" data-testid="full-error" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', maxHeight: 420, overflow: 'auto' }}>
          {stripAnsi(pattern.full_error)}
        </Code>
      </Collapse>
    </Box>
  );
}
