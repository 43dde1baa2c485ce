import type { AnyStore } from '../store/engine/types.js';
import { enqueueRunEvents } from '../store/webhooks/events.js';

/**
 * The alerts of a run just committed, written to the outbox; never throws. The run is stored
 * whatever happens here: a failure costs its alerts and says so in `warn`. Sending is the
 * drain's (drain.ts), never the importer's.
 */
export async function enqueueAfterCommit(store: AnyStore, runId: number, warn: (message: string) => void): Promise<number> {
  try {
    return await enqueueRunEvents(store, runId);
  } catch (error) {
    warn(`run ${runId} was stored, but its webhook alerts could not be queued: ${error instanceof Error ? error.message : String(error)}`);
    return 0;
  }
}
