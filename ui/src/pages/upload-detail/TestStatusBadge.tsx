import { Badge } from '@mantine/core';
import type { TestResultRow } from '../../../../core/api/uploads.js';

const STATUS = {
  passed: { label: 'Passed', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
  timedOut: { label: 'Timed Out', color: 'orange' },
  skipped: { label: 'Skipped', color: 'gray' },
} as const;

export function TestStatusBadge({ status }: { status: TestResultRow['status'] }) {
  const { label, color } = STATUS[status];
  return (
    <Badge color={color} variant="light" size="sm" style={{ flexShrink: 0 }}>
      {label}
    </Badge>
  );
}
