import { Group, Text } from '@mantine/core';
import type { FlakyTestGroup } from '../../../../core/api/analytics.js';
import { OwnerList } from '../../components/OwnerList.js';
import { OpenForBadge, timeToFixLines } from './OpenForBadge.js';

/** The dialog's owners of the test and its time to fix (docs/screens.md#owners, #time-to-fix). */
export function OwnersAndTimeToFix({ group }: { group: FlakyTestGroup }) {
  const t = group.time_to_fix;
  return (
    <Group gap="md" wrap="wrap" align="center" data-testid="dialog-owners">
      <Group gap={6} wrap="nowrap">
        <Text size="sm" c="dimmed">
          Owners
        </Text>
        <OwnerList owners={group.owners} />
      </Group>
      {t && (
        <Group gap={6} wrap="wrap" data-testid="dialog-time-to-fix">
          <OpenForBadge timeToFix={t} />
          <Text size="xs" c="dimmed">
            {timeToFixLines(t).join(' · ')}
          </Text>
        </Group>
      )}
    </Group>
  );
}
