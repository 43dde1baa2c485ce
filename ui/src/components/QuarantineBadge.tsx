import { Badge, Tooltip } from '@mantine/core';
import type { QuarantineView } from '../../../core/api/quarantine.js';

/** Marks a quarantined test wherever it is listed; the tooltip says why and through which UTC day. */
export function QuarantineBadge({ entry }: { entry: QuarantineView }) {
  const until = entry.through ? ` through ${entry.through}` : '';
  return (
    <Tooltip label={`${entry.reason}${entry.owner ? ` (owner ${entry.owner})` : ''}${until}`} multiline maw={360}>
      <Badge color="grape" variant="light" size="sm" mt={4} data-testid="quarantine-badge">
        Quarantined
      </Badge>
    </Tooltip>
  );
}
