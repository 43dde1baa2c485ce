import { useEffect, useMemo, useRef, useState } from 'react';
import type { PendingUpload } from '../../../../core/api/uploads.js';
import * as api from '../../api/calls.js';

export type ReviewAction = 'approve' | 'reject';
type Load = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; uploads: PendingUpload[] };

/**
 * The pending uploads of the review dialog and which are selected: loaded when the dialog
 * mounts, refreshed without a loading state when the polled count changes, and shortened as
 * uploads are reviewed. `onEmptied` runs once the last one is reviewed (the completion callback).
 */
export function usePendingUploads(pendingCount: number | undefined, onEmptied: () => void) {
  const [attempt, setAttempt] = useState(0);
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
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

  /** Shows `remaining` as the list; an empty list closes the dialog (the completion callback). */
  const show = (remaining: PendingUpload[]) => {
    const left = new Set(remaining.map((u) => u.id));
    shown.current = remaining;
    setLoad({ state: 'ready', uploads: remaining });
    setSelected((previous) => new Set([...previous].filter((id) => left.has(id))));
    setReviewedAny(true);
    if (remaining.length === 0) onEmptied();
  };

  /** Takes reviewed uploads off the list. */
  const settle = (reviewed: PendingUpload[], action: ReviewAction) => {
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

  const retry = () => {
    setLoad({ state: 'loading' });
    setAttempt((n) => n + 1);
  };

  return { state: load.state, uploads, selected, setSelected, reviewedAny, settle, retry };
}
