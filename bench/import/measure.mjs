// Preloaded with `node --import` into the process being measured: on exit it writes the
// wall time since start and the peak resident memory to the file named by BENCH_OUT.
import { writeFileSync } from 'node:fs';

const started = performance.now();
process.on('exit', () => {
  if (!process.env.BENCH_OUT) return;
  // CPU time too: on a shared machine it moves far less with the load than the wall time.
  const { maxRSS, userCPUTime, systemCPUTime } = process.resourceUsage();
  writeFileSync(process.env.BENCH_OUT, JSON.stringify({ ms: performance.now() - started, cpuMs: (userCPUTime + systemCPUTime) / 1000, peakRssMb: maxRSS / 1024 }));
});
