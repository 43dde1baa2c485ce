// Preloaded with `node --import` into the process being measured: on exit it writes the
// wall time since start and the peak resident memory to the file named by BENCH_OUT.
import { writeFileSync } from 'node:fs';

const started = performance.now();
process.on('exit', () => {
  if (!process.env.BENCH_OUT) return;
  const { maxRSS } = process.resourceUsage();
  writeFileSync(process.env.BENCH_OUT, JSON.stringify({ ms: performance.now() - started, peakRssMb: maxRSS / 1024 }));
});
