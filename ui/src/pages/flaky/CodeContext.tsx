import { Box, Text } from '@mantine/core';
import { NO_CODE_CONTEXT, parseCodeContext } from './error-display.js';

/** The error snippet in monospace with line numbers, an arrow on the failing line, and that line highlighted. */
export function CodeContext({ snippet, location }: { snippet: string | null; location: string | null }) {
  const lines = parseCodeContext(snippet, location);
  if (lines === null) {
    return (
      <Text size="sm" c="dimmed" data-testid="code-context">
        {NO_CODE_CONTEXT}
      </Text>
    );
  }
  return (
    <Box
      data-testid="code-context"
      ff="monospace"
      fz="xs"
      py={6}
      style={{ overflowX: 'auto', borderRadius: 'var(--mantine-radius-sm)', backgroundColor: 'var(--mantine-color-default-hover)', border: '1px solid var(--mantine-color-default-border)' }}
    >
      {location && (
        <Text ff="monospace" fz="xs" c="dimmed" px="sm" pb={4} style={{ overflowWrap: 'anywhere' }}>
          {location}
        </Text>
      )}
      {lines.map((line, i) => (
        <div
          key={i}
          data-failing={line.failing || undefined}
          style={{
            display: 'flex',
            whiteSpace: 'pre',
            minWidth: 'max-content',
            backgroundColor: line.failing ? 'var(--mantine-color-red-light)' : undefined,
            fontWeight: line.failing ? 600 : undefined,
          }}
        >
          <span aria-hidden={!line.failing} style={{ width: 24, textAlign: 'center', color: 'var(--mantine-color-red-filled)' }}>
            {line.failing ? '→' : ''}
          </span>
          <span style={{ width: 44, textAlign: 'right', paddingRight: 12, color: 'var(--mantine-color-dimmed)', userSelect: 'none' }}>{line.number ?? ''}</span>
          <span style={{ paddingRight: 12, color: line.caret ? 'var(--mantine-color-red-filled)' : undefined }}>{line.text}</span>
        </div>
      ))}
    </Box>
  );
}
