import type { AnalyticsRunner, KeptAnswerLog } from './runner.js';
import { keptFailureLog } from './runner.js';

/** How often `serve` looks whether the data changed: one read of the runs' signature. */
export const COMPUTE_AHEAD_EVERY_MS = 10_000;

/**
 * Computes the kept answers again soon after the data changes (an upload, an import by another
 * process, a review, a new UTC day) and once at start, so the screens a team looks at answer at
 * once the next time they are asked (docs/operations.md#kept-answers). A failure (the database
 * away) waits for the next look, said in the log at most every ten minutes; the health routes
 * report outages.
 */
export function computeAheadEvery(runner: AnalyticsRunner, options: { everyMs?: number; log?: KeptAnswerLog; now?: () => number } = {}): { stop(): void } {
  const everyMs = options.everyMs ?? COMPUTE_AHEAD_EVERY_MS;
  const failed = keptFailureLog(options.log, options.now ?? Date.now);
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const look = () => {
    timer = null;
    void runner
      .computeAhead()
      .catch((error: unknown) => failed('could not look for answers to compute ahead; looking again in a while', error))
      .finally(() => {
        // Never more than one look at a time: the next is due once this one has finished.
        if (!stopped) timer = setTimeout(look, everyMs).unref();
      });
  };
  timer = setTimeout(look, 0).unref();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
