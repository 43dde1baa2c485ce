/**
 * Evidence on import: a run of TESTS tests (default 50,000) of which FAILURES (default 3,000)
 * failed, each failure with a screenshot (~30 KB) and a trace (~200 KB) of its own bytes, beside
 * the report as Playwright writes them. Times the built `flakeboard import` with
 * `--attachments none` and with the default (`failures`), into fresh databases, and the disk the
 * evidence folder takes. Usage: npm run bench -- evidence [TESTS] [FAILURES]   (build first)
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tests = Number(process.argv[2] ?? 50_000);
const failures = Number(process.argv[3] ?? 3_000);
const dir = join(root, 'bench', '.data', `evidence-${tests}-${failures}`);
rmSync(dir, { recursive: true, force: true });
const out = join(dir, 'test-results');
mkdirSync(out, { recursive: true });

const specs = [];
for (let i = 0; i < tests; i++) {
  const failed = i % Math.max(1, Math.floor(tests / failures)) === 0 && i / Math.max(1, Math.floor(tests / failures)) < failures;
  const attachments = [];
  if (failed) {
    const folder = join(out, `t${i}-chromium`);
    mkdirSync(folder);
    writeFileSync(join(folder, 'test-failed-1.png'), randomBytes(30_000));
    writeFileSync(join(folder, 'trace.zip'), randomBytes(200_000));
    attachments.push({ name: 'screenshot', contentType: 'image/png', path: join(folder, 'test-failed-1.png') }, { name: 'trace', contentType: 'application/zip', path: join(folder, 'trace.zip') });
  }
  specs.push({
    title: `test ${i}`, file: `f${i % 500}.spec.ts`, line: i, column: 1,
    tests: [{ projectName: 'chromium', expectedStatus: 'passed', status: failed ? 'unexpected' : 'expected', results: [{ retry: 0, status: failed ? 'failed' : 'passed', duration: 100, startTime: '2026-11-20T10:00:00.000Z', attachments, ...(failed ? { error: { message: `Error: failure ${i}` } } : {}) }] }],
  });
}
const report = join(dir, 'report.json');
writeFileSync(report, JSON.stringify({ config: { version: '1.50.0', projects: [{ name: 'chromium', outputDir: out }] }, suites: [{ title: 'all.spec.ts', file: 'all.spec.ts', specs }], errors: [], stats: { startTime: '2026-11-20T10:00:00.000Z', duration: 1000 } }));

function timed(args: string[]): number {
  const start = process.hrtime.bigint();
  execFileSync(process.execPath, [join(root, 'bin', 'flakeboard.js'), 'import', report, ...args], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NO_COLOR: '1' } });
  return Number(process.hrtime.bigint() - start) / 1e9;
}

function folderBytes(path: string): number {
  let bytes = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) bytes += entry.isDirectory() ? folderBytes(join(path, entry.name)) : statSync(join(path, entry.name)).size;
  return bytes;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const none = timed(['--db', join(dir, 'none.db'), '--attachments', 'none']);
const kept = timed(['--db', join(dir, 'kept.db')]);
const again = timed(['--db', join(dir, 'kept.db'), '--name', 'again']);
console.log(`evidence import: ${tests} tests, ${failures} failures with a screenshot and a trace each; report ${mb(statSync(report).size)}, attachments ${mb(folderBytes(out))}`);
console.log(`  --attachments none:            ${none.toFixed(2)} s`);
console.log(`  --attachments failures:        ${kept.toFixed(2)} s  (evidence folder ${mb(folderBytes(join(dir, 'kept.db-evidence')))}, database ${mb(statSync(join(dir, 'kept.db')).size)} vs ${mb(statSync(join(dir, 'none.db')).size)})`);
console.log(`  the same again (blobs there):  ${again.toFixed(2)} s`);
