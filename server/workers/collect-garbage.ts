/**
 * A full garbage collection once a thread's heap has grown well past what the last one kept.
 * A cold answer on a long history allocates hundreds of MB of rows that are garbage once it is
 * sent, and V8 keeps that garbage until its heap grows further: at ten million results `serve`
 * peaked at 641 MB after nine cold screens, 389 MB with a collection after each answer that grew
 * the heap by 64 MB (docs/benchmarks.md#ten-million-results). An answer that allocates less
 * (any answer on a small history, a warm one on a large) never pays for one.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * V8's own full collection, as `--expose-gc` gives it; the flag is set back at once, so no other
 * code sees `gc`. The flag is the process's, shared by every thread: a worker starting beside
 * this one may set it back between the two steps (two servers' analytics workers restarting
 * together after a database outage did), leaving the new context without `gc`, so it is tried
 * again; a thread that never gets it does without the collection rather than fail its answers.
 */
export function fullCollection(): (() => void) | null {
  for (let attempt = 0; attempt < 100; attempt++) {
    setFlagsFromString('--expose-gc');
    try {
      const gc = runInNewContext('typeof gc === "function" ? gc : null') as (() => void) | null;
      if (gc) return gc;
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  }
  return null;
}

const usedBytes = () => getHeapStatistics().used_heap_size;

/** Returns a check to call after each large piece of work: it collects, and says so, when the heap grew by `growthBytes` since the last collection it made. */
export function collectAfterGrowth(growthBytes: number): () => boolean {
  const collect = fullCollection();
  let keptAfterLast = usedBytes();
  return () => {
    if (!collect || usedBytes() - keptAfterLast < growthBytes) return false;
    collect();
    keptAfterLast = usedBytes();
    return true;
  };
}
