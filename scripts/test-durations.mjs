// Writes fixtures/testing/test-durations.json from vitest's record of the last run
// (node_modules/.vite/vitest/*/results.json): each test file's duration in seconds, keyed
// `project:file`, which a fresh clone's run uses to start the longest files first
// (fixtures/testing/slowest-first.ts). Run it after a full `npx vitest run` with
// FLAKEBOARD_TEST_POSTGRES_URL set, on a quiet machine, when files have come or gone or their
// cost has changed much.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cacheDir = fileURLToPath(new URL('../node_modules/.vite/vitest/', import.meta.url));
const [dir] = readdirSync(cacheDir);
if (!dir) throw new Error('no vitest results to read: run `npx vitest run` first');
const { results } = JSON.parse(readFileSync(`${cacheDir}${dir}/results.json`, 'utf8'));
const last = new Map(results);
// Vitest keeps files it no longer runs (renamed, moved to another project): only today's.
const specs = JSON.parse(execFileSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'list', '--filesOnly', '--json'], { cwd: root, encoding: 'utf8' }));
const durations = {};
const missing = [];
for (const { file, projectName } of specs) {
  const key = `${projectName}:${file.slice(root.length)}`;
  const duration = last.get(key)?.duration;
  if (duration === undefined) missing.push(key);
  else durations[key] = Math.round(duration / 100) / 10;
}
const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => (a < b ? -1 : 1)));
writeFileSync(new URL('../fixtures/testing/test-durations.json', import.meta.url), `${JSON.stringify(sorted, null, 1)}\n`);
console.log(`test-durations.json: ${Object.keys(sorted).length} files${missing.length ? `; not in the last run, left out: ${missing.join(', ')}` : ''}`);
