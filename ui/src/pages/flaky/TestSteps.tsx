import { Box, Code, Collapse, Group, Text, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import { formatDuration } from '../../lib/format.js';
import { formatErrorMessage, parseTestSteps, type TestStep } from './error-display.js';
import { ExpandArrow } from './ExpandArrow.js';

function countSteps(steps: readonly TestStep[]): number {
  return steps.reduce((n, s) => n + 1 + countSteps(s.steps), 0);
}

function StepList({ steps, depth }: { steps: readonly TestStep[]; depth: number }) {
  return (
    <Box component="ul" m={0} pl={depth === 0 ? 0 : 'md'} style={{ listStyle: 'none' }}>
      {steps.map((step, i) => (
        <li key={i}>
          <Group gap={6} wrap="nowrap" align="baseline">
            <Text size="sm" c={step.error ? 'red' : undefined} style={{ overflowWrap: 'anywhere' }}>
              {step.error ? '✗' : '✓'} {step.title}
            </Text>
            {step.category && (
              <Text size="xs" c="dimmed" ff="monospace">
                {step.category}
              </Text>
            )}
            {step.duration !== null && (
              <Text size="xs" c="dimmed">
                {formatDuration(step.duration)}
              </Text>
            )}
          </Group>
          {step.error && (
            <Text size="xs" c="red" ff="monospace" pl="md" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {formatErrorMessage(step.error)}
            </Text>
          )}
          {step.steps.length > 0 && <StepList steps={step.steps} depth={depth + 1} />}
        </li>
      ))}
    </Box>
  );
}

/** The run's steps (JSON text), folded; text that does not parse is shown as it is. */
export function TestSteps({ text }: { text: string | null }) {
  const [open, setOpen] = useState(false);
  const parsed = parseTestSteps(text);
  if (parsed.kind === 'none') return null;
  const label = parsed.kind === 'steps' ? `Test steps (${countSteps(parsed.steps)})` : 'Test steps';
  return (
    <Box mt="sm" data-testid="test-steps">
      <UnstyledButton onClick={() => setOpen((o) => !o)} aria-expanded={open}>
        <Group gap={4}>
          <ExpandArrow open={open} />
          <Text size="xs" fw={700} c="dimmed" tt="uppercase">
            {label}
          </Text>
        </Group>
      </UnstyledButton>
      <Collapse expanded={open}>
        <Box pt={6} pl="md">
          {parsed.kind === 'steps' ? <StepList steps={parsed.steps} depth={0} /> : <Code block>{parsed.text}</Code>}
        </Box>
      </Collapse>
    </Box>
  );
}
