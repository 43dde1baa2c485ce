import { Badge, Group, Text } from '@mantine/core';
import type { TestOwnerView } from '../../../core/api/analytics.js';

const SOURCE: Record<TestOwnerView['source'], string> = {
  annotation: "from the test's owner annotation",
  tag: "from the test's @owner: tag",
  codeowners: "from its file's CODEOWNERS entry",
};

/** A test's owners as badges (each says where it came from), or "Unowned". */
export function OwnerList({ owners, size = 'sm' }: { owners: readonly TestOwnerView[] | undefined; size?: 'xs' | 'sm' }) {
  if (!owners || owners.length === 0) {
    return (
      <Text size={size} c="dimmed" fs="italic" data-testid="group-owners" data-unowned="true">
        Unowned
      </Text>
    );
  }
  return (
    <Group gap={4} wrap="wrap" data-testid="group-owners">
      {owners.map((o) => (
        <Badge key={o.owner} variant="light" color="indigo" size={size} tt="none" title={SOURCE[o.source]} style={{ maxWidth: 220 }}>
          {o.owner}
        </Badge>
      ))}
    </Group>
  );
}
