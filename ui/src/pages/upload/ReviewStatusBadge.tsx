import { Badge } from '@mantine/core';
import type { ReviewStatus } from '../../../../core/api/uploads.js';

const STATUS = {
  pending: { label: 'Pending', color: 'yellow' },
  approved: { label: 'Approved', color: 'green' },
  rejected: { label: 'Rejected', color: 'red' },
} as const;

/** An upload's review status (docs/screens.md#upload: approved and rejected are shown as badges). */
export function ReviewStatusBadge({ status }: { status: ReviewStatus }) {
  const { label, color } = STATUS[status];
  return (
    <Badge color={color} variant="light" data-testid="review-status">
      {label}
    </Badge>
  );
}
