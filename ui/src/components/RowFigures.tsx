import { Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export interface RowFigure {
  label: string;
  value: ReactNode;
}

/**
 * A table row's figures side by side, each under its column's name: the phone layout of a wide
 * table, where the columns become one cell and nothing waits off the edge. Each figure is as wide
 * as its name or value (equal shares cut 'Worst Rate' short), spread across the row.
 */
export function RowFigures({ figures }: { figures: readonly RowFigure[] }) {
  return (
    <div
      data-testid="row-figures"
      style={{ display: 'grid', gridTemplateColumns: `repeat(${figures.length}, auto)`, justifyContent: 'space-between', columnGap: 'var(--mantine-spacing-sm)' }}
    >
      {figures.map((figure) => (
        <Stack key={figure.label} gap={0} style={{ minWidth: 0 }}>
          <Text fz={10} lh={1.4} c="dimmed" tt="uppercase" fw={700} style={{ whiteSpace: 'nowrap' }}>
            {figure.label}
          </Text>
          <div style={{ fontSize: 'var(--mantine-font-size-sm)', fontWeight: 600 }}>{figure.value}</div>
        </Stack>
      ))}
    </div>
  );
}
