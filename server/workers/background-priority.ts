import { setPriority } from 'node:os';

/**
 * How much lower than the server's own thread a worker thread runs (a nice value: 0 normal, 19
 * lowest). Health checks, sign-in and the answers the workers hand back are handled on the main
 * thread; on a machine with two cores and a busy analytics query or import, a probe that waits
 * for a core behind them took over 250 ms now and then (docs/operations.md, "Health under load").
 * A lower priority only orders who runs first: an idle core still goes to the worker at once.
 */
export const BACKGROUND_NICE = 10;

/**
 * Lowers the calling thread's scheduling priority. On Linux a nice value belongs to a thread, so
 * this affects the worker that calls it and not the server's main thread; where the system
 * does not allow it (or applies it to the whole process, as macOS and Windows do), nothing is
 * changed, since lowering the whole server would defeat the point.
 */
export function runInBackground(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    setPriority(BACKGROUND_NICE);
    return true;
  } catch {
    return false;
  }
}
