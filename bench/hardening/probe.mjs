// Asks `url` every `everyMs` from its own process (so the load generator's event loop does not
// colour the figures) until its stdin closes; then prints every latency in ms as JSON.
const [url, everyMs = '20'] = process.argv.slice(2);
const times = [];
let running = true;
process.stdin.on('end', () => (running = false));
process.stdin.resume();
while (running) {
  const started = performance.now();
  try {
    const res = await fetch(url);
    await res.arrayBuffer();
    times.push(res.ok ? performance.now() - started : -1);
  } catch {
    times.push(-1);
  }
  await new Promise((resolve) => setTimeout(resolve, Number(everyMs)));
}
process.stdout.write(JSON.stringify(times));
