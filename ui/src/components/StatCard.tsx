import { Paper, Text, type MantineColor } from '@mantine/core';
import type { ReactNode } from 'react';

/** One figure with its label; `color` tints the value (a pass rate's colour rule, for instance). */
export function StatCard({ label, value, color, hint, onClick, active }: {
  label: string;
  value: ReactNode;
  color?: MantineColor;
  hint?: ReactNode;
  onClick?: () => void;
  active?: boolean;
}) {
  const clickable = onClick !== undefined;
  return (
    <Paper
      withBorder
      p="md"
      radius="md"
      onClick={onClick}
      component={clickable ? 'button' : 'div'}
      aria-pressed={clickable ? active : undefined}
      style={{
        textAlign: 'left',
        width: '100%',
        cursor: clickable ? 'pointer' : undefined,
        borderColor: active ? 'var(--mantine-primary-color-filled)' : undefined,
        borderWidth: active ? 2 : undefined,
      }}
    >
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fz={28} fw={700} c={color} lh={1.3}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Paper>
  );
}
