import { Button, Group, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { useMemo, useState } from 'react';
import type { PendingUpload } from '../../../../core/api/uploads.js';
import { PendingUploadCard } from './PendingUploadCard.js';
import { filterPendingUploads } from './review-search.js';
import type { ReviewAction } from './use-pending-uploads.js';

interface Props {
  uploads: PendingUpload[];
  selected: ReadonlySet<number>;
  onSelected(update: (previous: ReadonlySet<number>) => ReadonlySet<number>): void;
  busy: ReadonlySet<number>;
  onReviewOne(upload: PendingUpload, action: ReviewAction): void;
  onReviewSelected(list: PendingUpload[], action: ReviewAction): void;
  onView(): void;
  phone: boolean;
}

/** The search box, Select All with the bulk Keep and Delete, and a card per upload that matches the search. */
export function PendingReviewList({ uploads, selected, onSelected, busy, onReviewOne, onReviewSelected, onView, phone }: Props) {
  const [query, setQuery] = useState('');
  const visible = useMemo(() => filterPendingUploads(uploads, query), [uploads, query]);
  const chosen = uploads.filter((u) => selected.has(u.id));
  // Duplicates can only be deleted, so a bulk Keep leaves them out.
  const keepable = chosen.filter((u) => u.is_duplicate !== 1);
  const allVisibleSelected = visible.length > 0 && visible.every((u) => selected.has(u.id));
  const toggleAll = () =>
    onSelected((previous) => {
      const next = new Set(previous);
      for (const u of visible) {
        if (allVisibleSelected) next.delete(u.id);
        else next.add(u.id);
      }
      return next;
    });

  return (
    <Stack gap="sm">
      <TextInput placeholder="Search by filename, browser, project, or user..." aria-label="Search pending uploads" value={query} onChange={(event) => setQuery(event.currentTarget.value)} />
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Button variant="subtle" size="xs" onClick={toggleAll} disabled={visible.length === 0}>
          {allVisibleSelected ? 'Deselect All' : 'Select All'}
        </Button>
        {chosen.length > 0 && (
          <Group gap="xs">
            {keepable.length > 0 && (
              <Button size="xs" color="green" onClick={() => onReviewSelected(keepable, 'approve')}>
                Keep ({keepable.length})
              </Button>
            )}
            <Button size="xs" color="red" onClick={() => onReviewSelected(chosen, 'reject')}>
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
              onSelect={(on) => onSelected((previous) => (on ? new Set(previous).add(upload.id) : new Set([...previous].filter((id) => id !== upload.id))))}
              onReview={(action) => onReviewOne(upload, action)}
              onView={onView}
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
  );
}
