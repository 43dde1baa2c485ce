import { Badge, Button, Group, Modal, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { PendingUpload } from '../../../../core/api/uploads.js';
import * as api from '../../api/calls.js';
import { ApiError } from '../../api/client.js';
import { EmptyState, ErrorState, LoadingState } from '../../components/PageState.js';
import { PendingUploadCard } from './PendingUploadCard.js';
import { filterPendingUploads } from './review-search.js';

type Action = 'approve' | 'reject';
type Load = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; uploads: PendingUpload[] };

const VERB: Record<Action, string> = { approve: 'keep', reject: 'delete' };

/**
 * The Pending Uploads Review dialog (docs/screens.md#pending-uploads-review). Mounted while open, so each opening
 * loads the list afresh. `onClose(reviewedAny)` tells the dashboard whether to reload; after the
 * last upload is reviewed it is called by itself (the completion callback).
 */
export function PendingReviewDialog({ onClose, pendingCount }: { onClose(reviewedAny: boolean): void; pendingCount?: number }) {
  const [attempt, setAttempt] = useState(0);
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [busy, setBusy] = useState<ReadonlySet<number>>(new Set());
  const [reviewedAny, setReviewedAny] = useState(false);
  const mounted = useRef(true);
  // The list as last shown, for answers that arrive after further reviews.
  const shown = useRef<PendingUpload[]>([]);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  useEffect(() => {
    let current = true;
    api.pendingUploads().then(
      (uploads) => {
        if (!current) return;
        shown.current = uploads;
        setLoad({ state: 'ready', uploads });
      },
      (error: unknown) => {
        console.error('Failed to load pending uploads', error);
        if (current) setLoad({ state: 'failed' });
      },
    );
    return () => {
      current = false;
    };
  }, [attempt]);

  // Uploads that arrive while the dialog is open (the session polls the count) join the list
  // without a loading state; selections of uploads still listed are kept.
  const ready = load.state === 'ready';
  useEffect(() => {
    if (!ready || pendingCount === undefined || pendingCount === shown.current.length) return;
    let current = true;
    api.pendingUploads().then(
      (fresh) => {
        if (!current || !mounted.current) return;
        const listed = new Set(fresh.map((u) => u.id));
        shown.current = fresh;
        setLoad({ state: 'ready', uploads: fresh });
        setSelected((previous) => new Set([...previous].filter((id) => listed.has(id))));
      },
      (error: unknown) => console.error('Failed to refresh pending uploads', error),
    );
    return () => {
      current = false;
    };
  }, [ready, pendingCount]);

  const uploads = useMemo(() => (load.state === 'ready' ? load.uploads : []), [load]);
  const visible = useMemo(() => filterPendingUploads(uploads, query), [uploads, query]);
  const chosen = uploads.filter((u) => selected.has(u.id));
  // Duplicates can only be deleted, so a bulk Keep leaves them out.
  const keepable = chosen.filter((u) => u.is_duplicate !== 1);
  const allVisibleSelected = visible.length > 0 && visible.every((u) => selected.has(u.id));

  const close = () => onClose(reviewedAny);

  /** Shows `remaining` as the list; an empty list closes the dialog (the completion callback). */
  const show = (remaining: PendingUpload[]) => {
    const left = new Set(remaining.map((u) => u.id));
    shown.current = remaining;
    setLoad({ state: 'ready', uploads: remaining });
    setSelected((previous) => new Set([...previous].filter((id) => left.has(id))));
    setReviewedAny(true);
    if (remaining.length === 0) onClose(true);
  };

  /** Takes reviewed uploads off the list. */
  const settle = (reviewed: PendingUpload[], action: Action) => {
    const done = new Set(reviewed.map((u) => u.id));
    const remaining = shown.current.filter((u) => !done.has(u.id));
    show(remaining);
    // The server rejects an original's pending duplicates with it: ask it what is still pending.
    if (remaining.length > 0 && action === 'reject' && reviewed.some((u) => u.is_duplicate !== 1)) {
      api.pendingUploads().then(
        (fresh) => {
          if (!mounted.current) return;
          const still = new Set(fresh.map((u) => u.id));
          if (shown.current.some((u) => !still.has(u.id))) show(shown.current.filter((u) => still.has(u.id)));
        },
        (error: unknown) => console.error('Failed to refresh pending uploads', error),
      );
    }
  };

  const markBusy = (ids: number[], on: boolean) =>
    setBusy((previous) => {
      const next = new Set(previous);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });

  const reviewOne = async (upload: PendingUpload, action: Action) => {
    markBusy([upload.id], true);
    try {
      await api.reviewUpload(upload.id, action);
      settle([upload], action);
    } catch (error) {
      console.error('Failed to review upload', error);
      window.alert((error instanceof ApiError && error.serverError) || 'Failed to review upload. Please try again.');
    } finally {
      markBusy([upload.id], false);
    }
  };

  const reviewSelected = async (action: Action) => {
    const list = action === 'approve' ? keepable : chosen;
    if (list.length === 0) {
      window.alert('Please select at least one upload to review.');
      return;
    }
    if (!window.confirm(`Are you sure you want to ${VERB[action]} ${list.length} upload(s)?`)) return;
    const ids = list.map((u) => u.id);
    markBusy(ids, true);
    try {
      await api.bulkReview(ids.map((id) => ({ id, action })));
      settle(list, action);
    } catch (error) {
      console.error('Failed to bulk review uploads', error);
      // A refusal says why (second-person approval: one of them is the reviewer's own upload).
      window.alert((error instanceof ApiError && error.status === 403 && error.serverError) || 'Failed to bulk review uploads. Please try again.');
    } finally {
      markBusy(ids, false);
    }
  };

  const toggleAll = () =>
    setSelected((previous) => {
      const next = new Set(previous);
      for (const u of visible) {
        if (allVisibleSelected) next.delete(u.id);
        else next.add(u.id);
      }
      return next;
    });

  // A phone gets the whole screen: a centred modal left the cards a third of its width.
  const phone = useMediaQuery('(max-width: 36em)') ?? false;

  const retry = () => {
    setLoad({ state: 'loading' });
    setAttempt((n) => n + 1);
  };

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
      {load.state === 'loading' && <LoadingState text="Loading pending uploads..." />}
      {load.state === 'failed' && <ErrorState text="Failed to load pending uploads. Please try again." action={{ label: 'Try Again', onClick: retry }} />}
      {load.state === 'ready' && uploads.length === 0 && (
        <EmptyState title="All Caught Up!">
          <Text c="dimmed">No pending uploads to review.</Text>
        </EmptyState>
      )}
      {load.state === 'ready' && uploads.length > 0 && (
        <Stack gap="sm">
          <TextInput
            placeholder="Search by filename, browser, project, or user..."
            aria-label="Search pending uploads"
            value={query}
            onChange={(event) => setQuery(event.currentTarget.value)}
          />
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Button variant="subtle" size="xs" onClick={toggleAll} disabled={visible.length === 0}>
              {allVisibleSelected ? 'Deselect All' : 'Select All'}
            </Button>
            {chosen.length > 0 && (
              <Group gap="xs">
                {keepable.length > 0 && (
                  <Button size="xs" color="green" onClick={() => void reviewSelected('approve')}>
                    Keep ({keepable.length})
                  </Button>
                )}
                <Button size="xs" color="red" onClick={() => void reviewSelected('reject')}>
                  Delete ({chosen.length})
                </Button>
              </Group>
            )}
          </Group>
          <ScrollArea.Autosize mah={phone ? 'calc(100dvh - 230px)' : '55vh'} type="auto" offsetScrollbars>
            <Stack gap="xs">
              {visible.map((upload) => (
                <PendingUploadCard
                  key={upload.id}
                  upload={upload}
                  selected={selected.has(upload.id)}
                  busy={busy.has(upload.id)}
                  onSelect={(on) => setSelected((previous) => (on ? new Set(previous).add(upload.id) : new Set([...previous].filter((id) => id !== upload.id))))}
                  onReview={(action) => void reviewOne(upload, action)}
                  onView={close}
                />
              ))}
              {visible.length === 0 && (
                <Text c="dimmed" ta="center" py="lg">
                  No uploads match your search.
                </Text>
              )}
            </Stack>
          </ScrollArea.Autosize>
        </Stack>
      )}
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
