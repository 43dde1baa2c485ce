/**
 * bench/import: time and peak memory of `flakeboard import` (the built binary) against the
 * floor of reading and JSON.parse-ing the same files, measured in the same run so the ratio
 * holds on a noisy shared machine.
 *
 *   npm run build && npm run bench -- import      (BENCH_SCALE=0.1 for a quick look)
 *
 * The figures are medians of BENCH_REPEAT runs taken in turn with the floor's (wall time, CPU
 * time and peak memory each on its own); BENCH_BEFORE=<checkout> adds that build's import.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateHistory } from '../../server/demo/history.js';
import { addStepsAndErrors } from './steps-shape.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const data = join(root, 'bench/.data/import');
const scale = Number(process.env.BENCH_SCALE ?? 1);
const repeat = Number(process.env.BENCH_REPEAT ?? 3);
// BENCH_BEFORE=<another checkout, built>: its import measured in turn with this one's, in the same run.
const before = process.env.BENCH_BEFORE;

interface Measure {
  ms: number;
  cpuMs: number;
  peakRssMb: number;
}

function measure(args: string[]): Measure {
  const out = join(data, 'measure.json');
  execFileSync(process.execPath, ['--import', join(root, 'bench/import/measure.mjs'), ...args], {
    env: { ...process.env, BENCH_OUT: out, NO_COLOR: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return JSON.parse(readFileSync(out, 'utf8')) as Measure;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Runs each measured command `times` times, the commands taking turns (floor, import, floor, …)
 * so a change in the machine's load falls on all of them alike; the median of each figure.
 * `prepare` runs before each one (e.g. a fresh database).
 */
function alternate(times: number, runs: Record<string, { run: () => Measure; prepare?: () => void }>): Record<string, Measure> {
  const all: Record<string, Measure[]> = Object.fromEntries(Object.keys(runs).map((name) => [name, []]));
  for (let i = 0; i < times; i++) {
    for (const [name, { run, prepare }] of Object.entries(runs)) {
      prepare?.();
      all[name]!.push(run());
    }
  }
  return Object.fromEntries(
    Object.entries(all).map(([name, ms]) => [name, { ms: median(ms.map((m) => m.ms)), cpuMs: median(ms.map((m) => m.cpuMs)), peakRssMb: median(ms.map((m) => m.peakRssMb)) }]),
  );
}

function writeHistory(dir: string, options: Parameters<typeof generateHistory>[0], pretty = true, steps = false): { files: string[]; results: number; bytes: number } {
  // Generating gigabytes of JSON takes minutes: reuse it when the options are the same.
  // Beside the folder, not in it: `import DIR` would read it as a report.
  const manifest = `${dir}.manifest.json`;
  if (existsSync(manifest)) {
    const saved = JSON.parse(readFileSync(manifest, 'utf8')) as { options: unknown; files: string[]; results: number; bytes: number };
    if (JSON.stringify(saved.options) === JSON.stringify({ ...options, pretty, steps })) return saved;
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let results = 0;
  let bytes = 0;
  const files: string[] = [];
  for (const run of generateHistory(options)) {
    const file = join(dir, run.fileName);
    if (steps) addStepsAndErrors(run.report);
    // Playwright indents its JSON; compact files are what a merge or a re-serialising tool writes.
    const text = JSON.stringify(run.report, null, pretty ? 2 : undefined);
    writeFileSync(file, text);
    files.push(file);
    bytes += text.length;
    results += run.report.stats ? run.report.stats.expected! + run.report.stats.unexpected! + run.report.stats.flaky! + run.report.stats.skipped! : 0;
  }
  writeFileSync(manifest, JSON.stringify({ options: { ...options, pretty, steps }, files, results, bytes }));
  return { files, results, bytes };
}

function scenario(name: string, files: string[], results: number, bytes: number, importArgs: string[], times: number) {
  const db = join(data, `${name}.db`);
  const fresh = () => {
    for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
  };
  const importWith = (checkout: string) => () => measure([join(checkout, 'bin/flakeboard.js'), 'import', ...importArgs, '--db', db, '--json', '--approve']);
  const measured = alternate(times, {
    floor: { run: () => measure([join(root, 'bench/import/floor.mjs'), ...files]) },
    ...(before ? { before: { run: importWith(before), prepare: fresh } } : {}),
    import: { run: importWith(root), prepare: fresh },
  });
  const floor = measured.floor!;
  const imported = measured.import!;
  return {
    scenario: name,
    files: files.length,
    results,
    megabytes: +(bytes / 1e6).toFixed(1),
    floorMs: Math.round(floor.ms),
    importMs: Math.round(imported.ms),
    ratio: +(imported.ms / floor.ms).toFixed(2),
    floorCpuMs: Math.round(floor.cpuMs),
    importCpuMs: Math.round(imported.cpuMs),
    cpuRatio: +(imported.cpuMs / floor.cpuMs).toFixed(2),
    ...(measured.before
      ? { beforeMs: Math.round(measured.before.ms), beforeRatio: +(measured.before.ms / floor.ms).toFixed(2), beforeCpuMs: Math.round(measured.before.cpuMs), beforeCpuRatio: +(measured.before.cpuMs / floor.cpuMs).toFixed(2), beforePeakRssMb: Math.round(measured.before.peakRssMb) }
      : {}),
    resultsPerSecond: Math.round(results / (imported.ms / 1000)),
    floorPeakRssMb: Math.round(floor.peakRssMb),
    importPeakRssMb: Math.round(imported.peakRssMb),
    dbMegabytes: +(statSync(db).size / 1e6).toFixed(1),
  };
}

if (!existsSync(join(root, 'dist/cli.js'))) throw new Error('run `npm run build` first: the benchmark measures the built binary');
mkdirSync(data, { recursive: true });

// BENCH_SCENARIOS=a,b runs only those (the history takes many minutes).
const only = process.env.BENCH_SCENARIOS?.split(',');
const scenarios: Array<[string, () => ReturnType<typeof scenario>]> = [
  // One big report: 12,500 tests × 4 browsers = 50,000 results, indented as Playwright writes it.
  ['one-report', () => {
    const one = writeHistory(join(data, 'one'), { seed: 7, runs: 1, days: 1, tests: Math.round(12_500 * scale) });
    return scenario('one-report', one.files, one.results, one.bytes, one.files, repeat);
  }],
  // The aim: the same 50,000 results as compact JSON (as merge tools write it), at ≤ 3× the floor.
  ['one-report-compact', () => {
    const compact = writeHistory(join(data, 'compact'), { seed: 7, runs: 1, days: 1, tests: Math.round(12_500 * scale) }, false);
    return scenario('one-report-compact', compact.files, compact.results, compact.bytes, compact.files, repeat);
  }],
  // The second shape: the same 50,000 results with steps on every attempt and Playwright's
  // error fields on every failed one (bench/import/steps-shape.ts), indented.
  ['with-steps', () => {
    const stepped = writeHistory(join(data, 'steps'), { seed: 7, runs: 1, days: 1, tests: Math.round(12_500 * scale) }, true, true);
    return scenario('with-steps', stepped.files, stepped.results, stepped.bytes, stepped.files, repeat);
  }],
  // Bounded memory: a 300 MB report (40,000 tests × 4 browsers, compact) imports under 1 GB.
  ['300-MB-report', () => {
    const large = writeHistory(join(data, 'large'), { seed: 9, runs: 1, days: 1, tests: Math.round(40_000 * scale) }, false);
    return scenario('300-MB-report', large.files, large.results, large.bytes, large.files, 1);
  }],
  // A quarter of CI history: 500 runs × 500 tests × 4 browsers = 1,000,000 results, measured
  // once (BENCH_HISTORY_REPEAT to change).
  ['history', () => {
    const historyDir = join(data, 'history');
    const history = writeHistory(historyDir, { seed: 8, runs: Math.round(500 * scale), days: 90, tests: 500 });
    return scenario('history', history.files, history.results, history.bytes, [historyDir], Number(process.env.BENCH_HISTORY_REPEAT ?? 1));
  }],
];
const rows = scenarios.filter(([name]) => !only || only.includes(name)).map(([, run]) => run());
console.table(rows);
writeFileSync(join(data, 'results.json'), JSON.stringify({ node: process.version, date: new Date().toISOString(), rows }, null, 2));
