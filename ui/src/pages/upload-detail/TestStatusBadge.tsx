import { Badge } from '@mantine/core';
import type { TestResultRow } from '../../../../core/api/uploads.js';
import { WHOLE_BADGE } from '../../components/whole-badge.js';

const STATUS = {
  passed: { label: 'Passed', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
  timedOut: { label: 'Timed Out', color: 'orange' },
  skipped: { label: 'Skipped', color: 'gray' },
} as const;

export function TestStatusBadge({ status }: { status: TestResultRow['status'] }) {
  const { label, color } = STATUS[status];
  return (
    <Badge color={color} variant="light" size="sm" style={WHOLE_BADGE}>
      {label}
    </Badge>
  );
}
