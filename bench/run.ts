/**
 * The one way to run a benchmark: `npm run bench -- <name> [args]`. Each name maps to its script,
 * run in a child process (`node --import tsx <script> [args]`) with this process's environment, so
 * BENCH_* and the PostgreSQL URLs reach it; the runner exits with the script's code.
 * `npm run bench` alone, or `-- --list`, prints the names. What each measures, at what scale and
 * where its figures are written: bench/README.md.
 *
 * Only node: imports here, so listing the names (and the test that reads BENCHMARKS) starts fast.
 */
import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { constants } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface Benchmark {
  /** Relative to the repository root. */
  script: string;
  /** One line for the list. */
  measures: string;
}

export const BENCHMARKS: Record<string, Benchmark> = {
  import: { script: 'bench/import/run.ts', measures: 'the built `flakeboard import` against the floor of reading and parsing the same JSON (build first)' },
  'import:postgres': { script: 'bench/import/postgres.ts', measures: "the 50,000-result import into PostgreSQL beside SQLite (after `import`'s compact report; needs a PostgreSQL URL)" },
  api: { script: 'bench/api/run.ts', measures: 'every analytics GET of `serve` on 1,000,000 results, cold and at 10 connections (build first)' },
  ops: { script: 'bench/ops/run.ts', measures: 'doctor, backup and prune on a live 400,000-result database, and what serve answers meanwhile (build first)' },
  hardening: { script: 'bench/hardening/run.ts', measures: "/api/health while serve takes big uploads, many readers, a CLI import, cold analytics; SIGTERM's time (build first)" },
  'serve-start': { script: 'bench/serve-start/run.ts', measures: "CPU of each thread of a `serve` start until it answers, of one or more checkouts taking turns; first /api/health and /api/dashboard (build first)" },
  text: { script: 'bench/hostile-text/run.ts', measures: 'CPU time of every reader of report text on the hostile corpus at 100,000 and 400,000 characters' },
  lists: { script: 'bench/lists/run.ts', measures: 'the paged list and run-details calls on 50,000 tests and 1,000,000 results (build first)' },
  'lists:ui': { script: 'bench/lists/ui.ts', measures: "the Flaky Tests screen in Chromium on the lists history: time to its first page, longest task (build first)" },
  mixed: { script: 'bench/lists/mixed.ts', measures: "50 readers polling the dashboard's calls on the lists history while a prober asks /api/health (build first)" },
  remove: { script: 'bench/lists/remove.ts', measures: 'deleting and rejecting one 50,000-result run of the lists history' },
  large: { script: 'bench/large-suite/run.ts', measures: 'every GET against `serve` on two 1,000,000-result histories, SQLite and/or PostgreSQL (build first)' },
  'large:compute': { script: 'bench/large-suite/compute.ts', measures: "CPU of each dashboard and trend answer, in process, against the unbounded one it replaced (after `large`)" },
  'large:ahead': { script: 'bench/large-suite/ahead.ts', measures: "what `serve` spends computing its kept answers again after an import by another process, and the screens' first answers after it (build first)" },
  'large:build': { script: 'bench/large-suite/build-large.ts', measures: 'builds the large-suite history alone, or its 5,000,000-result one with `5m` (no figures)' },
  branch: { script: 'bench/large-suite/branch.ts', measures: 'CPU of each answer for every branch, for main and for one feature branch (after `large`)' },
  'migrate-db': { script: 'bench/migrate-db/run.ts', measures: '`migrate-db` throughput, 200,000 results into PostgreSQL (build first; needs FLAKEBOARD_TEST_POSTGRES_URL)' },
  'reads-engines': { script: 'bench/reads-engines/run.ts', measures: 'report, run, gate and branch answers on SQLite and its PostgreSQL copy, checked equal (needs FLAKEBOARD_TEST_POSTGRES_URL)' },
  mcp: { script: 'bench/mcp/run.ts', measures: 'each `flakeboard mcp` tool through the SDK client on 400,000 results' },
  'ai-load': { script: 'bench/ai-load/run.ts', measures: '/api/health and the event loop while six callers each post a ~9.5 MB AI analysis at once, against idle' },
  diagnosis: { script: 'bench/diagnosis/run.ts', measures: 'the local AI analysis answering a page of 50 failing tests, three rounds' },
  'request-path': { script: 'bench/request-path/run.ts', measures: 'what one warm request costs the server: CPU and young-generation collections per 1,000, SQLite and PostgreSQL (build first)' },
  outage: { script: 'bench/outage/run.ts', measures: 'two serve processes on one database under 40 uploads and 20 readers: health, reads, uploads; PostgreSQL restarted in the middle (build first)' },
  evidence: { script: 'bench/evidence/run.ts', measures: 'import of a 50,000-test run whose 3,000 failures each have a screenshot and a trace: time with and without evidence, disk used (build first)' },
  compare: { script: 'bench/compare/run.ts', measures: 'GET /api/evidence/compare on a listening server for two ~5 MB traces (thousands of actions, requests, console lines; 200 frames): wall and CPU per call' },
  previous: { script: 'bench/dashboard-previous/run.ts', measures: "what the 'vs previous period' figures cost the dashboard on 144,000 results" },
};

export function listText(): string {
  const width = Math.max(...Object.keys(BENCHMARKS).map((name) => name.length));
  const lines = Object.entries(BENCHMARKS).map(([name, { measures }]) => `  ${name.padEnd(width)}  ${measures}`);
  return ['usage: npm run bench -- <name> [args]   (environment variables and details: bench/README.md)', '', ...lines, ''].join('\n');
}

/** Runs `script` (relative to the root) in a child node with tsx, this environment and `args`; resolves to its exit code. */
export function runScript(script: string, args: string[]): Promise<number> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, script), ...args], { stdio: 'inherit', env: process.env });
  // Ctrl-C reaches the child from the terminal; a signal sent to this process alone is passed on.
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  const signals = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((signal) => [signal, forward(signal)] as const);
  for (const [signal, handler] of signals) process.on(signal, handler);
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('exit', (code, signal) => {
      for (const [name, handler] of signals) process.off(name, handler);
      // A child killed by a signal: the shell's convention, 128 + the signal's number.
      done(code ?? 128 + (signal ? constants.signals[signal] : 0));
    });
  });
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--list' || name === '-l' || name === '--help' || name === '-h') {
    process.stdout.write(listText());
    return 0;
  }
  const benchmark = Object.hasOwn(BENCHMARKS, name) ? BENCHMARKS[name] : undefined;
  if (!benchmark) {
    process.stderr.write(`unknown benchmark "${name}": the names are ${Object.keys(BENCHMARKS).join(', ')} (npm run bench -- --list says what each measures)\n`);
    return 2;
  }
  return runScript(benchmark.script, args);
}

// Run only as the entry point: the test imports BENCHMARKS without starting anything.
if (process.argv[1] && realpathSync(resolve(process.argv[1])) === realpathSync(fileURLToPath(import.meta.url))) {
  // The list piped into `head` closes the pipe early: that is not a failure.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  process.exitCode = await main(process.argv.slice(2));
}
