/** A small closed-loop load generator: `connections` callers, each sending the next request as
 * soon as its previous one answered, for `seconds`. Exact percentiles, no dependency. */
export interface LoadResult {
  requests: number;
  errors: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  perSecond: number;
}

/** `url` may be a function of the request number (a fresh URL per request defeats the cache). */
export async function load(url: string | ((n: number) => string), headers: Record<string, string>, options: { connections: number; seconds: number }): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + options.seconds * 1000;
  let sent = 0;
  const caller = async (): Promise<void> => {
    while (performance.now() < end) {
      const started = performance.now();
      try {
        const response = await fetch(typeof url === 'string' ? url : url(sent++), { headers });
        await response.arrayBuffer();
        if (!response.ok) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - started);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: options.connections }, caller));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { requests: latencies.length, errors, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: latencies.at(-1) ?? 0, perSecond: latencies.length / elapsed };
}
