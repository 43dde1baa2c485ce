import type { AlignedAction, AttemptComparison } from './compare.js';
import type { TraceAction, TraceFrame } from './summary.js';

/** The frame each attempt showed where they parted, and the action it was chosen for. */
export interface PartingFrame {
  frame: TraceFrame;
  /** The action whose end the frame shows (on a side that did not do the parting action, the last one it did before). */
  action: TraceAction;
}

// startMs and durationMs are rounded to the millisecond each: their sum may be 1 ms short of the real end.
const ROUNDING_MS = 1;

/**
 * The screencast frame that shows a side where the attempts parted: the last frame at or before
 * the end of the parting action; for an action that never ended (the test was stopped inside it),
 * the trace's last frame. A side that did not do the parting action is shown at the end of the
 * last action it did before that point. Null without frames, or when no frame came before.
 */
export function partingFrame(comparison: AttemptComparison, side: 'failing' | 'passing', frames: TraceFrame[]): PartingFrame | null {
  const parted = comparison.partedAt;
  if (!parted || frames.length === 0) return null;
  const action = parted[side] ?? lastBefore(comparison.aligned, parted.index, side);
  if (!action) return null;
  const frame = frameAtEnd(frames, action);
  return frame ? { frame, action } : null;
}

/** The last frame at or before the action's end; the last frame of all when the action never ended. */
export function frameAtEnd(frames: TraceFrame[], action: TraceAction): TraceFrame | null {
  if (action.durationMs === null) return frames.at(-1) ?? null;
  if (action.startMs === null) return null;
  const end = action.startMs + action.durationMs + ROUNDING_MS;
  let found: TraceFrame | null = null;
  for (const frame of frames) {
    if (frame.atMs > end) break;
    found = frame;
  }
  return found;
}

function lastBefore(aligned: AlignedAction[], index: number, side: 'failing' | 'passing'): TraceAction | null {
  for (let i = index - 1; i >= 0; i--) {
    const action = aligned[i]![side];
    if (action) return action;
  }
  return null;
}
