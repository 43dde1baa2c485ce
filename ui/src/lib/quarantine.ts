import { useCallback, useEffect, useState } from 'react';
import type { QuarantineView } from '../../../core/api/quarantine.js';
import { coversTest } from '../../../core/gate/classify.js';
import { quarantineList } from '../api/calls.js';

const CHANGED = 'quarantineChanged';

/** Tells every screen that shows quarantine badges to read the list again. */
export function broadcastQuarantineChanged(): void {
  window.dispatchEvent(new Event(CHANGED));
}

/**
 * The quarantine entries in force, read once per screen and again after a change, and the
 * gate's own matching rule (core), so a badge means exactly what `flakeboard check` does.
 */
export function useQuarantine(): { entryFor(title: string, file: string, browser?: string): QuarantineView | null; entries: QuarantineView[] } {
  const [entries, setEntries] = useState<QuarantineView[]>([]);
  useEffect(() => {
    let current = true;
    const load = () =>
      quarantineList().then(
        (answer) => current && setEntries(answer.entries.filter((q) => !q.expired)),
        // Badges are an extra: a failed load shows none and is only logged.
        (error: unknown) => console.error('Failed to load the quarantine list', error),
      );
    void load();
    window.addEventListener(CHANGED, load);
    return () => {
      current = false;
      window.removeEventListener(CHANGED, load);
    };
  }, []);
  const entryFor = useCallback(
    (title: string, file: string, browser?: string) => {
      const now = Date.now();
      // Without a browser (a group row) an entry for any one project counts.
      return entries.find((q) => coversTest(browser === undefined ? { ...q, project: null } : q, { title, file, project: browser ?? '' }, now)) ?? null;
    },
    [entries],
  );
  return { entries, entryFor };
}
