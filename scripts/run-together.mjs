#!/usr/bin/env node
// Runs the npm scripts named on the command line side by side and fails when any fails. The
// type checks and the lint are one thread each: one after the other they left a core idle for
// a minute and a half of `npm test`. Each script's output is held and printed whole when it
// ends, so two never interleave; its exit code and time are printed after it.
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
if (names.length === 0) {
  console.error('usage: node scripts/run-together.mjs <npm script> [<npm script>...]');
  process.exit(2);
}
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const results = await Promise.all(
  names.map(
    (name) =>
      new Promise((resolve) => {
        const started = Date.now();
        const child = spawn(npm, ['run', name], { stdio: ['ignore', 'pipe', 'pipe'] });
        const chunks = [];
        child.stdout.on('data', (d) => chunks.push(d));
        child.stderr.on('data', (d) => chunks.push(d));
        const finish = (code) => {
          process.stdout.write(Buffer.concat(chunks));
          const seconds = ((Date.now() - started) / 1000).toFixed(1);
          console.log(`${code === 0 ? '✓' : '✗'} npm run ${name} (${seconds} s${code === 0 ? '' : `, exit ${code}`})`);
          resolve(code);
        };
        child.on('error', (error) => {
          chunks.push(Buffer.from(`${error.message}\n`));
          finish(127);
        });
        child.on('close', (code, signal) => finish(code ?? (signal ? 1 : 0)));
      }),
  ),
);
process.exit(results.every((code) => code === 0) ? 0 : 1);
