// Preloaded into each `serve` of the outage benchmark (NODE_OPTIONS=--import): measures how long
// the server's own event loop was held, so a slow health answer can be told apart from a machine
// too busy to schedule the process. A held loop with little CPU spent meanwhile (by all of the
// process's threads together) was waiting for a core, not working. It also times each request
// inside the server, from Node handing it over to the last byte written, per path: what the
// callers' figures include beyond that is their own process, the connection and the machine.
// Each /api/health request's arrival and last byte are kept as times since the epoch too, so a
// slow answer the poller saw can be split into the server's part and the rest.
// SIGUSR2 writes the figures since the last signal and resets.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { writeFileSync } from 'node:fs';
import http from 'node:http';

const out = process.env.BENCH_LOOP_DELAY_OUT;
const LONG_MS = 150;
if (out) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let long = [];
  let requests = {};
  let health = [];
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  setInterval(() => {
    const now = performance.now();
    const cpu = process.cpuUsage();
    const gap = now - last;
    if (gap > LONG_MS) long.push({ atMs: Math.round(now), gapMs: Math.round(gap), cpuMs: Math.round((cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000) });
    last = now;
    lastCpu = cpu;
  }, 10).unref();
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (event, request, response) {
    if (event === 'request') {
      const started = performance.now();
      const path = request.url;
      response.once('finish', () => {
        const finished = performance.now();
        (requests[path] ??= []).push(Math.round((finished - started) * 10) / 10);
        if (path === '/api/health') health.push([performance.timeOrigin + started, performance.timeOrigin + finished]);
      });
    }
    return emit.apply(this, arguments);
  };
  process.on('SIGUSR2', () => {
    const ms = (ns) => Math.round(ns / 1e6);
    writeFileSync(`${out}.${process.pid}`, JSON.stringify({ p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max), long, requests, health }));
    histogram.reset();
    long = [];
    requests = {};
    health = [];
  });
}
