// Preloaded into the benchmark's `serve` (NODE_OPTIONS=--import): counts the main thread's
// garbage collections by kind, and their time, between two SIGUSR2 signals (each signal writes
// the counts since the last one to BENCH_GC_OUT.<pid> and starts again). A young-generation
// collection stops the thread that answers requests, so how many a request costs is what a
// loaded server's slowest answers wait for.
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { writeFileSync } from 'node:fs';

const out = process.env.BENCH_GC_OUT;
if (out) {
  let counts = { minor: 0, minorMs: 0, other: 0, otherMs: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) {
        counts.minor++;
        counts.minorMs += entry.duration;
      } else {
        counts.other++;
        counts.otherMs += entry.duration;
      }
    }
  }).observe({ entryTypes: ['gc'] });
  process.on('SIGUSR2', () => {
    // The observer hears of a collection a moment after it ends: let the last ones arrive first.
    setTimeout(() => {
      writeFileSync(`${out}.${process.pid}`, JSON.stringify(counts));
      counts = { minor: 0, minorMs: 0, other: 0, otherMs: 0 };
    }, 200);
  });
}
