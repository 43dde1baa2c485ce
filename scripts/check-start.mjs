// The README's first command ends in `npm start`: the server with demo data. CI checks that it
// comes up on a fresh clone, answers, and stops cleanly. Prints "N passed, N failed".
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'flakeboard-start-'));
const child = spawn('npm', ['start', '--silent'], {
  env: { ...process.env, FLAKEBOARD_DB: join(dir, 'demo.db'), FLAKEBOARD_PORT: '0' },
  stdio: ['ignore', 'pipe', 'pipe'],
  detached: true,
});
let output = '';
child.stdout.on('data', (d) => (output += d));
child.stderr.on('data', (d) => (output += d));
const results = [];
const check = async (name, fn) => {
  try {
    await fn();
    results.push(true);
    console.log(`✓ ${name}`);
  } catch (error) {
    results.push(false);
    console.log(`✗ ${name}: ${error.message}\n${output}`);
  }
};

let url = null;
await check('npm start serves the demo within 90 s', async () => {
  const deadline = Date.now() + 90_000;
  while (!(url = /serving .* at (http:\/\/\S+)/.exec(output)?.[1])) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('no "serving … at URL" line');
    await new Promise((r) => setTimeout(r, 200));
  }
  if (!/password: \S+/.test(output)) throw new Error('the first sign-in password was not printed');
  if (!/--demo: stored \d+ generated runs/.test(output)) throw new Error('no demo history was stored');
});
if (url) {
  await check('the API and the UI answer', async () => {
    const health = await fetch(new URL('/api/health', url));
    const page = await fetch(url);
    if (health.status !== 200 || page.status !== 200) throw new Error(`health ${health.status}, page ${page.status}`);
  });
}
await check('SIGTERM stops it', async () => {
  process.kill(-child.pid, 'SIGTERM');
  const code = await new Promise((resolve) => child.once('exit', (c, s) => resolve(c ?? s)));
  if (code !== 0 && code !== 'SIGTERM') throw new Error(`exit ${code}`);
});
rmSync(dir, { recursive: true, force: true });
const failed = results.filter((ok) => !ok).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
