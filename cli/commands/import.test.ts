import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../../fixtures/testing/cli.js';
import { PUBLIC_REPORTS_DIR, publicReports } from '../../fixtures/testing/public-reports.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';

let temp: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  temp = makeTempDir('flakeboard-cli-');
});
afterEach(() => temp.cleanup());

const good = JSON.stringify({
  config: { projects: [{ name: 'Desktop Chrome' }], version: '1.50.0' },
  suites: [
    {
      title: 'a.spec.ts',
      file: 'a.spec.ts',
      specs: [
        { title: 'passes', file: 'a.spec.ts', line: 1, column: 1, tests: [{ projectName: 'Desktop Chrome', expectedStatus: 'passed', results: [{ status: 'passed', retry: 0, duration: 5 }] }] },
        { title: 'flaky', file: 'a.spec.ts', line: 2, column: 1, tests: [{ projectName: 'Desktop Chrome', expectedStatus: 'passed', results: [{ status: 'failed', retry: 0, duration: 5 }, { status: 'passed', retry: 1, duration: 5 }] }] },
        { title: 'skipped', file: 'a.spec.ts', line: 3, column: 1, tests: [{ projectName: 'Desktop Chrome', expectedStatus: 'skipped', results: [] }] },
      ],
    },
  ],
  errors: [],
});

function write(name: string, content: string | Buffer): string {
  const path = join(temp.dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  return path;
}

function query<T>(db: string, sql: string): T[] {
  const sqlite = new Database(db, { readonly: true });
  try {
    return sqlite.prepare(sql).all() as T[];
  } finally {
    sqlite.close();
  }
}

describe('flakeboard --help and --version', () => {
  it('prints usage with the import command and the package version', async () => {
    const help = await runCli(['--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('Usage: flakeboard');
    expect(help.stdout).toMatch(/import \[options\] <paths\.\.\.>/);
    const version = await runCli(['--version']);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version);
  });

  it('import --help lists its options', async () => {
    const { stdout } = await runCli(['import', '--help']);
    for (const flag of ['--db', '--project', '--branch', '--commit', '--approve', '--json']) expect(stdout).toContain(flag);
  });
});

describe('flakeboard import', () => {
  it('stores into .flakeboard/flakeboard.db under the current folder and prints one line per file', async () => {
    write('reports/a.json', good);
    const { exitCode, stdout } = await runCli(['import', 'reports'], { cwd: temp.dir, env: cleanEnv() });
    expect(exitCode).toBe(0);
    expect(stdout).toBe('✓ reports/a.json: 3 tests, 1 passed, 1 failed, 1 flaky, 1 skipped (run 1)');
    const runs = query<{ status: string; browser: string; project: string }>(join(temp.dir, '.flakeboard/flakeboard.db'), 'SELECT status, browser, project FROM runs');
    expect(runs).toEqual([{ status: 'pending', browser: 'desktop chrome', project: 'Desktop Chrome' }]);
  });

  it('--json prints one array with an object per file; FLAKEBOARD_DB names the database', async () => {
    const a = write('a.json', good);
    const db = join(temp.dir, 'custom.db');
    const { exitCode, stdout } = await runCli(['import', a, a.replace('a.json', 'missing.json'), '--json', '--approve'], { cwd: temp.dir, env: cleanEnv({ FLAKEBOARD_DB: db }) });
    expect(exitCode).toBe(1);
    expect(JSON.parse(stdout)).toEqual([
      { file: join(temp.dir, 'missing.json'), runId: null, tests: 0, passed: 0, failed: 0, flaky: 0, skipped: 0, duplicate: false, error: `cannot read ${join(temp.dir, 'missing.json')}: no such file or folder` },
      { file: a, runId: 1, tests: 3, passed: 1, failed: 1, flaky: 1, skipped: 1, duplicate: false, status: 'approved' },
    ]);
    expect(query(db, 'SELECT status FROM runs')).toEqual([{ status: 'approved' }]);
  });

  it('records what stored the run and, with --name, what it is called; an empty or overlong label is refused and nothing is stored', async () => {
    write('reports/a.json', good);
    write('b.json', good.replace('passes', 'passes too'));
    const db = join(temp.dir, 'f.db');
    expect((await runCli(['import', 'reports/a.json', '--db', db], { cwd: temp.dir, env: cleanEnv() })).exitCode).toBe(0);
    const named = await runCli(['import', 'b.json', '--db', db, '--name', 'shop · feature/login · build 7', '--uploader', 'reporter on ci-box'], { cwd: temp.dir, env: cleanEnv() });
    expect(named.exitCode).toBe(0);
    // The line names the file read; the run carries the name it was given.
    expect(named.stdout).toBe('✓ b.json: 3 tests, 1 passed, 1 failed, 1 flaky, 1 skipped (run 2)');
    expect(query(db, 'SELECT file_name, uploaded_via FROM runs ORDER BY id')).toEqual([
      { file_name: 'reports/a.json', uploaded_via: `import on ${hostname()}` },
      { file_name: 'shop · feature/login · build 7', uploaded_via: 'reporter on ci-box' },
    ]);
    for (const [flag, value, problem] of [['--name', ' ', '--name must not be empty'], ['--uploader', 'x'.repeat(256), '--uploader must be at most 255 characters']] as const) {
      const refused = await runCli(['import', 'b.json', '--db', db, flag, value], { cwd: temp.dir, env: cleanEnv() });
      expect(refused.exitCode).toBe(1);
      expect(refused.stderr).toContain(`flakeboard import: ${problem}`);
    }
    expect(query(db, 'SELECT count(*) AS n FROM runs')).toEqual([{ n: 2 }]);
  });

  it('flags a second import of the same content as a duplicate', async () => {
    write('a.json', good);
    write('b.json', `\ufeff${good}`);
    const { stdout } = await runCli(['import', 'a.json', 'b.json', '--json'], { cwd: temp.dir, env: cleanEnv() });
    expect(JSON.parse(stdout).map((o: { duplicate: boolean }) => o.duplicate)).toEqual([false, true]);
  });

  it('takes branch and commit from flags, else the CI variables, else git', async () => {
    write('a.json', good);
    write('b.json', good.replace('passes', 'passes too'));
    write('c.json', good.replace('passes', 'passes three'));
    const db = join(temp.dir, 'f.db');
    await runCli(['import', 'a.json', '--db', db, '--branch', 'feat/x', '--commit', 'abc123', '--project', 'shop'], { cwd: temp.dir, env: cleanEnv() });
    await runCli(['import', 'b.json', '--db', db], { cwd: temp.dir, env: cleanEnv({ GITHUB_ACTIONS: 'true', GITHUB_SHA: 'f00d', GITHUB_REF_NAME: 'main' }) });
    const git = { cwd: temp.dir, env: cleanEnv({ GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' }) };
    await execa('git', ['init', '-q', '-b', 'trunk'], git);
    await execa('git', ['commit', '-q', '--allow-empty', '-m', 'x'], git);
    const { stdout: sha } = await execa('git', ['rev-parse', 'HEAD'], git);
    await runCli(['import', 'c.json', '--db', db], { cwd: temp.dir, env: cleanEnv() });
    expect(query(db, 'SELECT project, git_branch, git_commit FROM runs ORDER BY id')).toEqual([
      { project: 'shop', git_branch: 'feat/x', git_commit: 'abc123' },
      { project: 'Desktop Chrome', git_branch: 'main', git_commit: 'f00d' },
      { project: 'Desktop Chrome', git_branch: 'trunk', git_commit: sha },
    ]);
  });

  it('takes the CI build from --build-id/--build-url, else the CI variables; refuses a build URL that is not http(s)', async () => {
    write('a.json', good);
    write('b.json', good.replace('passes', 'passes too'));
    const db = join(temp.dir, 'f.db');
    const github = { GITHUB_ACTIONS: 'true', GITHUB_SHA: 'f00d', GITHUB_REF_NAME: 'main', GITHUB_RUN_ID: '555', GITHUB_RUN_ATTEMPT: '1', GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'o/r' };
    expect((await runCli(['import', 'a.json', '--db', db], { cwd: temp.dir, env: cleanEnv(github) })).exitCode).toBe(0);
    expect((await runCli(['import', 'b.json', '--db', db, '--build-id', 'b-7', '--build-url', 'https://ci.example.com/b/7'], { cwd: temp.dir, env: cleanEnv(github) })).exitCode).toBe(0);
    const refused = await runCli(['import', 'a.json', '--db', db, '--build-url', 'javascript:alert(1)'], { cwd: temp.dir, env: cleanEnv() });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('flakeboard import: --build-url: the build URL must start with http:// or https://, not javascript:');
    expect(query(db, 'SELECT build_id, build_url FROM runs ORDER BY id')).toEqual([
      { build_id: '555', build_url: 'https://github.com/o/r/actions/runs/555' },
      { build_id: 'b-7', build_url: 'https://ci.example.com/b/7' },
    ]);
  });

  it.runIf(publicReports().length > 0)('imports every public sample, each with its counts', async () => {
    const db = join(temp.dir, 'p.db');
    const { exitCode, stdout } = await runCli(['import', PUBLIC_REPORTS_DIR, '--json', '--db', db], { env: cleanEnv() });
    expect(exitCode).toBe(0);
    const outcomes = JSON.parse(stdout) as Array<{ file: string; tests: number; error?: string; loadError?: string }>;
    expect(outcomes).toHaveLength(publicReports().length);
    expect(outcomes.filter((o) => o.error)).toEqual([]);
    expect(outcomes.find((o) => o.file.includes('07-'))).toMatchObject({ tests: 93, passed: 78, failed: 9, flaky: 6, skipped: 6 });
    expect(outcomes.find((o) => o.file.includes('01-'))?.loadError).toMatch(/SyntaxError/);
    expect(query<{ n: number }>(db, 'SELECT sum(total_tests) AS n FROM runs')[0]!.n).toBe(outcomes.reduce((n, o) => n + o.tests, 0));
  });
});

describe('flakeboard import refuses bad input, names the file and the problem, stores nothing', () => {
  const cases: Array<[string, string | Buffer, RegExp]> = [
    ['not JSON', '{\n  "config": {},\n  nope\n}', /^✗ bad\.json: invalid JSON: .* at line 3, column 3$/m],
    ['an empty file', '', /^✗ bad\.json: the file is empty$/m],
    ['a truncated file', good.slice(0, 120), /^✗ bad\.json: invalid JSON: the file ends before the JSON is complete \(truncated\?\) at line 1$/m],
    ['JSON that is not a report', '{"config": {"projects": []}}', /^✗ bad\.json: not a Playwright JSON report: the field "suites" is missing$/m],
    // Deep nesting: these once overflowed the stack ("Maximum call stack size exceeded").
    [
      'suites nested 3,000 deep',
      `{"config":{},"suites":[${'{"title":"d","suites":['.repeat(3000)}{}${']}'.repeat(3000)}]}`,
      /^✗ bad\.json: the report nests too deeply: "suites\[0\]\.suites\[0\].*….*" nests suites deeper than the limit of 100 levels$/m,
    ],
    [
      'deep arrays in config.metadata',
      `{"config":{"metadata":{"ci":${'['.repeat(100_000)}${']'.repeat(100_000)}}},"suites":[]}`,
      /^✗ bad\.json: the report nests too deeply: "config\.metadata\.ci\[0\].*" nests values deeper than the limit of 32 levels$/m,
    ],
  ];
  for (const [what, content, message] of cases) {
    it(what, async () => {
      write('good.json', good);
      write('bad.json', content);
      const db = join(temp.dir, 'x.db');
      const { exitCode, stdout, stderr } = await runCli(['import', 'bad.json', 'good.json', '--db', db], { cwd: temp.dir, env: cleanEnv() });
      expect(exitCode).toBe(1);
      expect(stderr).toMatch(message);
      // The other file is still imported, and only it.
      expect(stdout).toContain('✓ good.json: 3 tests');
      expect(query(db, 'SELECT file_name FROM runs')).toEqual([{ file_name: 'good.json' }]);
    });
  }

  it('an unreadable path, a glob with no match, a folder with no reports', async () => {
    mkdirSync(join(temp.dir, 'empty'));
    write('notes/readme.txt', 'hi');
    const { exitCode, stderr } = await runCli(['import', 'nope.json', 'reports/*.json', 'empty', 'notes', '--db', 'x.db'], { cwd: temp.dir, env: cleanEnv() });
    expect(exitCode).toBe(1);
    expect(stderr.split('\n').filter(Boolean)).toEqual([
      '✗ cannot read nope.json: no such file or folder',
      '✗ no files match reports/*.json',
      '✗ no .json reports found in the folder empty',
      '✗ no .json reports found in the folder notes',
    ]);
  });
});
