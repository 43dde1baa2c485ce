import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { BENCHMARKS, runScript } from './run.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const RUNNER = join(root, 'bench/run.ts');
const runner = (args: string[], env: Record<string, string> = {}) =>
  execa(process.execPath, ['--import', 'tsx', RUNNER, ...args], { cwd: root, reject: false, stdin: 'ignore', env });

describe('npm run bench', () => {
  it('is the runner in package.json, with no separate bench:* scripts left', () => {
    const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.bench).toBe('node --import tsx bench/run.ts');
    expect(Object.keys(scripts).filter((name) => name.startsWith('bench:'))).toEqual([]);
  });

  it.each([[[]], [['--list']]])('with %j prints every name with what it measures', async (args) => {
    const r = await runner(args);
    expect(r.exitCode).toBe(0);
    const lines = String(r.stdout).split('\n');
    for (const [name, { measures }] of Object.entries(BENCHMARKS)) {
      expect(lines.filter((line) => line.trim().startsWith(`${name} `)), name).toEqual([expect.stringContaining(measures)]);
    }
  });

  it('refuses an unknown name with exit code 2, naming the known ones, and runs nothing', async () => {
    const r = await runner(['imprt', '--anything']);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('unknown benchmark "imprt"');
    for (const name of Object.keys(BENCHMARKS)) expect(r.stderr).toContain(name);
  });

  it('takes no inherited property for a name', async () => {
    const r = await runner(['constructor']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('unknown benchmark "constructor"');
  });

  it('runs a named benchmark with the environment it is given', async () => {
    // The smallest real benchmark: three runs instead of 200 (BENCH_DIAGNOSIS_RUNS).
    const r = await runner(['diagnosis'], { BENCH_DIAGNOSIS_RUNS: '3' });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('history: 3 runs of 60 tests on 4 browsers');
    expect(r.stdout).toMatch(/round 3: page of 50 in /);
  });

  it("exits with the benchmark's own code", async () => {
    const r = await runner(['reads-engines'], { FLAKEBOARD_TEST_POSTGRES_URL: '' });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('set FLAKEBOARD_TEST_POSTGRES_URL');
  });

  it("names only scripts that exist, each a benchmark's own file", () => {
    for (const [name, { script, measures }] of Object.entries(BENCHMARKS)) {
      expect(existsSync(join(root, script)), `${name}: ${script}`).toBe(true);
      expect(script, name).toMatch(/^bench\/[a-z-]+\/[a-z-]+\.ts$/);
      expect(measures.length, name).toBeGreaterThan(20);
    }
    expect(new Set(Object.values(BENCHMARKS).map((b) => b.script)).size).toBe(Object.keys(BENCHMARKS).length);
  });

  it('is described, name by name, in bench/README.md', () => {
    const readme = readFileSync(join(root, 'bench/README.md'), 'utf8');
    for (const name of Object.keys(BENCHMARKS)) expect(readme, name).toContain(`npm run bench -- ${name}`);
  });

  it("points bench/README.md's figures at sections docs/benchmarks.md has", () => {
    const readme = readFileSync(join(root, 'bench/README.md'), 'utf8');
    const docs = readFileSync(join(root, 'docs/benchmarks.md'), 'utf8');
    // The anchor a heading gets when the Markdown is rendered: lower case, punctuation dropped, spaces as dashes.
    const anchors = new Set([...docs.matchAll(/^#{2,6} (.+)$/gm)].map(([, title]) => title!.toLowerCase().replace(/[^a-z0-9 -]/g, '').replaceAll(' ', '-')));
    const linked = [...readme.matchAll(/\(\.\.\/docs\/benchmarks\.md#([a-z0-9-]+)\)/g)].map(([, anchor]) => anchor!);
    expect(linked.length).toBeGreaterThan(15);
    expect(linked.filter((anchor) => !anchors.has(anchor))).toEqual([]);
  });
});

describe('runScript', () => {
  const dir = mkdtempSync(join(tmpdir(), 'flakeboard-bench-run-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('passes the arguments and the environment through and returns the exit code', async () => {
    const out = join(dir, 'seen.json');
    const script = join(dir, 'probe.ts');
    // TypeScript, so the child is known to run under tsx.
    writeFileSync(script, `import { writeFileSync } from 'node:fs';\nconst seen: string[] = process.argv.slice(2);\nwriteFileSync(${JSON.stringify(out)}, JSON.stringify({ seen, env: process.env.BENCH_PROBE }));\nprocess.exitCode = 3;\n`);
    process.env.BENCH_PROBE = 'from the parent';
    try {
      const code = await runScript(relative(root, script), ['5m', '--flag', 'two words']);
      expect(code).toBe(3);
    } finally {
      delete process.env.BENCH_PROBE;
    }
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ seen: ['5m', '--flag', 'two words'], env: 'from the parent' });
  });

  it('reports a child killed by a signal as 128 + its number', async () => {
    const script = join(dir, 'killed.ts');
    writeFileSync(script, "process.kill(process.pid, 'SIGTERM');\nsetTimeout(() => {}, 10_000);\n");
    expect(await runScript(relative(root, script), [])).toBe(143);
  });
});
