import { Badge, Button, Group, Modal, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { PageStates } from '../../components/PageState.js';
import { PendingReviewList } from './PendingReviewList.js';
import { usePendingUploads } from './use-pending-uploads.js';
import { useReviewActions } from './use-review-actions.js';

/**
 * The Pending Uploads Review dialog (docs/screens.md#pending-uploads-review). Mounted while open, so each opening
 * loads the list afresh. `onClose(reviewedAny)` tells the dashboard whether to reload; after the
 * last upload is reviewed it is called by itself (the completion callback).
 */
export function PendingReviewDialog({ onClose, pendingCount }: { onClose(reviewedAny: boolean): void; pendingCount?: number }) {
  const pending = usePendingUploads(pendingCount, () => onClose(true));
  const { busy, reviewOne, reviewSelected } = useReviewActions(pending.settle);
  const { uploads } = pending;
  const close = () => onClose(pending.reviewedAny);
  // A phone gets the whole screen: a centred modal left the cards a third of its width.
  const phone = useMediaQuery('(max-width: 36em)') ?? false;

  return (
    <Modal
      opened
      onClose={close}
      size="xl"
      centered
      fullScreen={phone}
      title={
        <Group gap="sm">
          <Text fw={700} size="lg">
            Pending Uploads Review
          </Text>
          <Badge color="yellow" variant="filled" data-testid="pending-review-count">
            {uploads.length}
          </Badge>
        </Group>
      }
    >
      <PageStates
        error={pending.state === 'failed' ? { text: 'Failed to load pending uploads. Please try again.', onRetry: pending.retry } : null}
        loading={pending.state === 'loading' ? 'Loading pending uploads...' : null}
        empty={uploads.length === 0 ? { title: 'All Caught Up!', body: <Text c="dimmed">No pending uploads to review.</Text> } : null}
      >
        <PendingReviewList
          uploads={uploads}
          selected={pending.selected}
          onSelected={pending.setSelected}
          busy={busy}
          onReviewOne={(upload, action) => void reviewOne(upload, action)}
          onReviewSelected={(list, action) => void reviewSelected(list, action)}
          onView={close}
          phone={phone}
        />
      </PageStates>
      <Group justify="space-between" mt="md" pt="sm" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
        <Text size="sm" c="dimmed" data-testid="pending-review-footer">
          {uploads.length} upload(s) pending review
        </Text>
        <Button variant="default" onClick={close}>
          Review Later
        </Button>
      </Group>
    </Modal>
  );
}
