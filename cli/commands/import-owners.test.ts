import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../../fixtures/testing/cli.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';
import type { AddressInfo } from 'node:net';
import { buildSqliteTestApp, signIn, type SqliteTestApp } from '../../fixtures/testing/app.js';
import { API_TOKEN_PREFIX, hashToken, newToken } from '../../server/auth/tokens.js';
import { createApiToken } from '../../server/store/accounts/api-tokens.js';

let temp: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  temp = makeTempDir('flakeboard-owners-');
});
afterEach(() => temp.cleanup());

const flaky = (title: string, file: string, extra: Record<string, unknown> = {}) => ({
  title,
  file,
  line: 1,
  column: 1,
  ...extra,
  tests: [{ projectName: 'chromium', expectedStatus: 'passed', results: [{ status: 'failed', retry: 0, duration: 5 }, { status: 'passed', retry: 1, duration: 5 }] }],
});

/** A report as Playwright writes it on CI: rootDir on another machine, test files relative to it. */
const report = JSON.stringify({
  config: { rootDir: '/home/runner/work/shop/shop/tests/e2e', projects: [{ name: 'chromium' }], version: '1.50.0' },
  suites: [
    { title: 'cart.spec.ts', file: 'cart.spec.ts', specs: [flaky('adds to cart', 'cart.spec.ts'), flaky('pays', 'cart.spec.ts', { tags: ['@owner:payments-team'] })] },
    { title: 'admin/users.spec.ts', file: 'admin/users.spec.ts', specs: [flaky('lists users', 'admin/users.spec.ts')] },
  ],
  errors: [],
});

function write(path: string, content: string): string {
  const full = join(temp.dir, path);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, content);
  return full;
}

function owners(db: string): Record<string, string[]> {
  const sqlite = new Database(db, { readonly: true });
  try {
    const rows = sqlite.prepare('SELECT t.title, o.owner, o.source FROM tests t LEFT JOIN test_owners o ON o.test_id = t.id ORDER BY t.title, o.owner').all() as Array<{ title: string; owner: string | null; source: string | null }>;
    const byTitle: Record<string, string[]> = {};
    for (const r of rows) (byTitle[r.title] ??= []).push(...(r.owner ? [`${r.owner} (${r.source})`] : []));
    return byTitle;
  } finally {
    sqlite.close();
  }
}

describe('flakeboard import attributes tests to owners', () => {
  it("reads the checkout's .github/CODEOWNERS, maps the report's rootDir into the repository, and lets tags win", async () => {
    const git = { cwd: temp.dir, env: cleanEnv() };
    await execa('git', ['init', '-q', '-b', 'main'], git);
    mkdirSync(join(temp.dir, 'tests/e2e/admin'), { recursive: true });
    write('.github/CODEOWNERS', '# owners\n*            @everyone\n/tests/e2e/   @qa-team\n/tests/e2e/admin/ @admin-team\n');
    write('reports/run.json', report);
    const db = join(temp.dir, 'f.db');
    // From a folder inside the checkout: git's root is found from the report's folder.
    const result = await runCli(['import', 'reports/run.json', '--db', db], { cwd: temp.dir, env: cleanEnv() });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(owners(db)).toEqual({
      'adds to cart': ['@qa-team (codeowners)'],
      'lists users': ['@admin-team (codeowners)'],
      pays: ['@payments-team (tag)'],
    });
  });

  it('--codeowners and --repo-root name them outside a checkout; a newer CODEOWNERS replaces the owners', async () => {
    mkdirSync(join(temp.dir, 'repo/tests/e2e'), { recursive: true });
    const codeowners = write('owners.txt', '/tests/e2e/*.spec.ts @cart-team\n');
    write('run.json', report);
    const db = join(temp.dir, 'f.db');
    let result = await runCli(['import', 'run.json', '--db', db, '--codeowners', codeowners, '--repo-root', join(temp.dir, 'repo')], { cwd: temp.dir, env: cleanEnv() });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(owners(db)).toEqual({ 'adds to cart': ['@cart-team (codeowners)'], 'lists users': [], pays: ['@payments-team (tag)'] });
    writeFileSync(codeowners, '/tests/ @web\n/tests/e2e/cart.spec.ts\n');
    write('run2.json', report.replace('"duration":5', '"duration":6'));
    result = await runCli(['import', 'run2.json', '--db', db, '--codeowners', codeowners, '--repo-root', join(temp.dir, 'repo')], { cwd: temp.dir, env: cleanEnv() });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(owners(db)).toEqual({ 'adds to cart': [], 'lists users': ['@web (codeowners)'], pays: ['@payments-team (tag)'] });
  });

  it('refuses a --codeowners file it cannot read, naming it, and stores nothing', async () => {
    write('run.json', report);
    const db = join(temp.dir, 'f.db');
    const result = await runCli(['import', 'run.json', '--db', db, '--codeowners', 'missing/CODEOWNERS'], { cwd: temp.dir, env: cleanEnv() });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/cannot read the CODEOWNERS file .*missing\/CODEOWNERS: ENOENT/);
    const { stdout } = await runCli(['quarantine', 'list', '--db', db], { cwd: temp.dir, env: cleanEnv() });
    expect(stdout).toMatch(/no quarantined tests/);
    const sqlite = new Database(db, { readonly: true });
    expect(sqlite.prepare('SELECT count(*) AS n FROM runs').get()).toEqual({ n: 0 });
    sqlite.close();
  });

  it("quarantine add takes the test's owners when --owner is not given", async () => {
    mkdirSync(join(temp.dir, 'repo/tests/e2e'), { recursive: true });
    const codeowners = write('owners.txt', '/tests/e2e/ @qa-team\n');
    write('run.json', report);
    const db = join(temp.dir, 'f.db');
    await runCli(['import', 'run.json', '--db', db, '--codeowners', codeowners, '--repo-root', join(temp.dir, 'repo')], { cwd: temp.dir, env: cleanEnv() });
    await runCli(['quarantine', 'add', 'adds to cart', '--db', db, '--reason', 'flaky'], { cwd: temp.dir, env: cleanEnv() });
    await runCli(['quarantine', 'add', 'pays', '--db', db, '--reason', 'flaky', '--owner', '@me'], { cwd: temp.dir, env: cleanEnv() });
    const { stdout } = await runCli(['quarantine', 'list', '--db', db, '--json'], { cwd: temp.dir, env: cleanEnv() });
    expect((JSON.parse(stdout) as Array<{ title: string; owner: string | null }>).map((q) => [q.title, q.owner])).toEqual([
      ['pays', '@me'],
      ['adds to cart', '@qa-team'],
    ]);
  });
});

describe('flakeboard upload resolves the owners and sends them', () => {
  let t: SqliteTestApp;
  let server: string;
  let token: string;
  beforeEach(async () => {
    t = await buildSqliteTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    server = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    token = newToken(API_TOKEN_PREFIX);
    await createApiToken(t.store, { name: 'ci', tokenHash: hashToken(token), userId: 3 });
  });
  afterEach(async () => {
    await t?.close();
  });

  const stored = async () => {
    const rows = await t.store.sql.all<{ title: string; owner: string | null }>('SELECT t.title, o.owner FROM tests t LEFT JOIN test_owners o ON o.test_id = t.id ORDER BY t.title, o.owner');
    return Object.fromEntries(rows.map((r) => [r.title, r.owner]));
  };

  it("from the checkout's CODEOWNERS, relative to the report's rootDir; the server reads no file", async () => {
    await execa('git', ['init', '-q', '-b', 'main'], { cwd: temp.dir, env: cleanEnv() });
    mkdirSync(join(temp.dir, 'tests/e2e/admin'), { recursive: true });
    write('CODEOWNERS', '/tests/e2e/ @qa-team\n/tests/e2e/admin/ @admin-team\n');
    write('run.json', report);
    const result = await runCli(['upload', 'run.json', '--server', server, '--token', token], { cwd: temp.dir, env: cleanEnv() });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(await stored()).toEqual({ 'adds to cart': '@qa-team', 'lists users': '@admin-team', pays: '@payments-team' });
  });

  it('the server refuses owners that are not owners, naming them, and stores nothing', async () => {
    const who = await signIn(t.app, 'max');
    const payload = { testResults: JSON.parse(report), metadata: { codeowners: { 'cart.spec.ts': ['@ok', 'not an owner'] } } };
    const res = await t.app.inject({ method: 'POST', url: '/api/upload', headers: who.headers, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/codeowners\/"cart.spec.ts": "not an owner" is not an owner/);
    const list = await t.app.inject({ method: 'POST', url: '/api/upload', headers: who.headers, payload: { ...payload, metadata: { codeowners: ['@a'] } } });
    expect(list.json().error).toMatch(/codeowners must be an object/);
    expect(await t.store.sql.all('SELECT id FROM runs')).toEqual([]);
  });
});
