import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import Database from 'better-sqlite3';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHistoryDb, QUARANTINE_REASON } from '../fixtures/testing/history-db.js';
import { makeTempDir } from '../fixtures/testing/temp.js';
import { analyseTest } from '../server/ai/analyse.js';
import { MIGRATIONS } from '../server/store/engine/migrations.js';
import { openStore } from '../server/store/engine/open.js';
import { openLocalSource } from './local-source.js';
import { createMcpServer } from './server.js';
import type { HistorySource } from './source.js';
import { analysisRequest } from './tools/diagnose-test.js';

// The tool logic over a real database file (the own suite's three runs), through the SDK's client.
let history: Awaited<ReturnType<typeof buildHistoryDb>>;
let source: HistorySource;
let client: Client;
let fileBefore: string;

const digest = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

beforeAll(async () => {
  history = await buildHistoryDb();
  fileBefore = digest(history.db);
  source = await openLocalSource(history.db);
  const server = createMcpServer(source, { version: 'test' });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: 'flakeboard-test', version: '1' });
  await client.connect(clientSide);
});

afterAll(async () => {
  await client?.close();
  await source?.close();
  history?.cleanup();
});

const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const data = (r: CallToolResult) => r.structuredContent as any;

const CHECKOUT = 'checkout.spec.ts';
const ASSERTION = 'expect(locator).toHaveText(expected) failed';

describe('flakeboard mcp tools over a local database', () => {
  it('lists seven read-only tools, each with bounded inputs and an output schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['compare_attempts', 'diagnose_test', 'failure_evidence', 'last_run_failures', 'list_flaky_tests', 'test_errors', 'test_history']);
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.description!.length, tool.name).toBeGreaterThan(100);
    }
    const flaky = tools.find((t) => t.name === 'list_flaky_tests')!;
    expect(flaky.inputSchema.properties!.limit).toMatchObject({ minimum: 1, maximum: 100 });
  });

  it('list_flaky_tests: the flaky discount test on both projects, with its figures and the quarantine of one project', async () => {
    const r = await call('list_flaky_tests', { days: 0 });
    expect(r.isError).toBeFalsy();
    const { total, tests } = data(r);
    // The steady failures (logs out, order total) are broken, not flaky: only the discount test flips.
    expect(total).toBe(1);
    expect(tests).toHaveLength(1);
    const [test] = tests;
    expect(test).toMatchObject({ title: 'applies a discount code', file: CHECKOUT, runs: 6, failed: 4 });
    const byProject = Object.fromEntries(test.projects.map((p: { project: string }) => [p.project, p]));
    expect(Object.keys(byProject).sort()).toEqual(['chromium', 'chromium-mobile']);
    expect(byProject.chromium).toMatchObject({ runs: 3, failed: 2, passedOnRetry: 2, quarantine: null });
    expect(byProject.chromium.passRate).toBeCloseTo(1 / 3, 5);
    expect(byProject['chromium-mobile'].quarantine).toMatchObject({ reason: QUARANTINE_REASON, owner: 'shop-team', expiresAt: null });
    expect(text(r)).toContain('title "applies a discount code" file "checkout.spec.ts"');
    expect(text(r)).toContain(`quarantined (${JSON.stringify(QUARANTINE_REASON)})`);
  });

  it('list_flaky_tests: the project and file filters narrow the list', async () => {
    const mobile = data(await call('list_flaky_tests', { days: 0, project: 'chromium-mobile' }));
    expect(mobile.tests[0].projects.map((p: { project: string }) => p.project)).toEqual(['chromium-mobile']);
    expect(data(await call('list_flaky_tests', { days: 0, file: 'checkout' })).total).toBe(1);
    const none = await call('list_flaky_tests', { days: 0, file: 'account.spec.ts' });
    expect(data(none)).toMatchObject({ total: 0, tests: [] });
    expect(text(none)).toContain('No flaky tests');
  });

  it('test_history: each run of a steadily failing test with its commit, branch and first error line, newest first', async () => {
    const r = await call('test_history', { file: CHECKOUT, title: 'shows the order total with shipping' });
    expect(r.isError).toBeFalsy();
    const { projects, results } = data(r);
    expect(projects).toEqual([{ project: 'chromium', totalResults: 3 }]);
    expect(results.map((x: { commit: string; branch: string }) => `${x.commit}@${x.branch}`)).toEqual(['cccc333@feature/tax', 'bbbb222@main', 'aaaa111@main']);
    for (const x of results) expect(x).toMatchObject({ status: 'failed', outcome: 'unexpected', retries: 2, error: ASSERTION, project: 'chromium' });
    expect(text(r)).toContain(`commit "cccc333" branch "feature/tax", error ${JSON.stringify(ASSERTION)}`);
    // limit bounds the answer; a project narrows it.
    const one = data(await call('test_history', { file: CHECKOUT, title: 'applies a discount code', project: 'chromium-mobile', limit: 1 }));
    expect(one.results).toHaveLength(1);
    expect(one.results[0]).toMatchObject({ project: 'chromium-mobile', status: 'passed', commit: 'cccc333' });
  });

  it('test_history: a whole describe path finds the test by its own title', async () => {
    const r = data(await call('test_history', { file: CHECKOUT, title: 'Checkout › shows the order total with shipping' }));
    expect(r.test.title).toBe('shows the order total with shipping');
    expect(r.results).toHaveLength(3);
  });

  it('test_history: the file as the repository names it finds the one stored relative to testDir, and says which', async () => {
    for (const file of [`tests/${CHECKOUT}`, `./tests/${CHECKOUT}`, `tests\\${CHECKOUT}`]) {
      const r = await call('test_history', { file, title: 'shows the order total with shipping' });
      expect([file, r.isError ?? false]).toEqual([file, false]);
      expect(data(r).test).toEqual({ file: CHECKOUT, title: 'shows the order total with shipping' });
      expect(data(r).results).toHaveLength(3);
      expect(text(r)).toContain(`in "${CHECKOUT}"`);
    }
    // Another file of the same name is not the same test.
    const other = await call('test_history', { file: 'tests/other-checkout.spec.ts', title: 'shows the order total with shipping' });
    expect(other.isError).toBe(true);
  });

  it('test_errors: one fingerprint for the discount test, counted over both projects, with a sample message', async () => {
    const r = await call('test_errors', { file: CHECKOUT, title: 'applies a discount code' });
    const d = data(r);
    expect(d).toMatchObject({ resultsRead: 6, failuresWithError: 4 });
    expect(d.errors).toHaveLength(1);
    expect(d.errors[0]).toMatchObject({ count: 4, category: 'Assertion Error', projects: ['chromium', 'chromium-mobile'], summary: ASSERTION });
    expect(d.errors[0].sampleMessage).toContain('Expected: "$36.00"');
    // Colour codes are gone from what an agent reads.
    expect(text(r)).not.toContain('\u001b[');
  });

  it('diagnose_test: the answer of the analysis engine the /api/ai-analysis route calls, for the same rows', async () => {
    const r = await call('diagnose_test', { file: CHECKOUT, title: 'shows the order total with shipping' });
    expect(r.isError).toBeFalsy();
    const d = data(r);
    expect(d.test).toEqual({ file: CHECKOUT, title: 'shows the order total with shipping', project: 'chromium' });
    expect(d.resultsSent).toBe(3);
    // The same rows through analyseTest directly: the tool adds nothing and drops nothing.
    const store = openStore(history.db, { readonly: true });
    try {
      const rows = data(await call('test_history', { file: CHECKOUT, title: 'shows the order total with shipping', limit: 100 })).results;
      expect(rows).toHaveLength(3);
      const detail = (await source.testResults({ title: 'shows the order total with shipping', file: CHECKOUT, browser: 'chromium', page: 1, pageSize: 200 })).items;
      const direct = await analyseTest(analysisRequest('shows the order total with shipping', 'chromium', detail), {
        store,
        env: {},
        fetch: globalThis.fetch,
        now: Date.now,
        log: { warn: () => undefined } as never,
      });
      const { timestamp: _t, generatedInMs: _g, ...same } = direct;
      expect(d.diagnosis).toMatchObject(same);
      expect(Object.keys(d.diagnosis).sort()).toEqual(Object.keys(direct).sort());
      // Flaky or not comes first, in the words the AI tab shows.
      expect(text(r)).toContain(`flaky or not: ${direct.stabilityText}\nroot cause: `);
    } finally {
      await store.close();
    }
    expect(d.diagnosis.engine).toBe('local');
    expect(text(r)).toContain(`root cause: ${d.diagnosis.rootCause}`);
    expect(text(r)).toContain(`confidence: ${d.diagnosis.confidence}`);
  });

  it('last_run_failures: the newest run, and the newest of a branch with its flaky tests', async () => {
    const newest = data(await call('last_run_failures', {}));
    expect(newest.run).toMatchObject({ branch: 'feature/tax', commit: 'cccc333', total: 19, failed: 3 });
    expect(newest.failed.map((t: { title: string }) => t.title).sort()).toEqual(['loads the usage dashboard', 'logs out from the header', 'shows the order total with shipping']);
    expect(newest.flaky).toEqual([]);
    // A test.fail() test that failed as expected is not a failure.
    expect(newest.failed.map((t: { title: string }) => t.title)).not.toContain('rounds tax to the cent');
    expect(newest.failed.find((t: { title: string }) => t.title === 'loads the usage dashboard')).toMatchObject({ status: 'timedOut', error: 'Test timeout of 1000ms exceeded.' });

    const main = await call('last_run_failures', { branch: 'main' });
    const d = data(main);
    expect(d.run).toMatchObject({ branch: 'main', commit: 'bbbb222' });
    expect(d.flaky.map((t: { project: string }) => t.project).sort()).toEqual(['chromium', 'chromium-mobile']);
    expect(d.flaky[0]).toMatchObject({ title: 'applies a discount code', file: CHECKOUT, error: ASSERTION });
    expect(text(main)).toContain('Flaky (passed on retry):');
  });

  it('errors come back as tool errors that name the problem', async () => {
    const unknown = await call('test_history', { file: CHECKOUT, title: 'no such test' });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toContain('unknown test: no stored results for title "no such test" in file "checkout.spec.ts" on the projects "chromium", "chromium-mobile"');

    const wrongProject = await call('diagnose_test', { file: CHECKOUT, title: 'shows the order total with shipping', project: 'firefox' });
    expect(wrongProject.isError).toBe(true);
    expect(text(wrongProject)).toContain('on project "firefox"');

    const branch = await call('last_run_failures', { branch: 'release' });
    expect(branch.isError).toBe(true);
    expect(text(branch)).toBe(`no run of branch "release" among the newest 3 runs in ${history.db}; branches seen: "feature/tax", "main"`);

    const tooMany = await call('list_flaky_tests', { limit: 1000 });
    expect(tooMany.isError).toBe(true);
    expect(text(tooMany)).toMatch(/list_flaky_tests.*<=100.*limit/);

    const missing = await call('test_errors', { title: 'applies a discount code' });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/test_errors.*file/);
  });

  it('reads only: the database file is byte for byte the same after every tool ran', () => {
    expect(digest(history.db)).toBe(fileBefore);
    // A read-only connection never writes the log either.
    if (existsSync(`${history.db}-wal`)) expect(statSync(`${history.db}-wal`).size).toBe(0);
  });
});

describe('opening the database', () => {
  it('names a missing file', async () => {
    await expect(openLocalSource('/nonexistent/flakeboard.db')).rejects.toThrow('no database at /nonexistent/flakeboard.db: point --db at the file the runs are stored in');
  });

  it('names a file of an older or newer schema instead of misreading it (read-only, it is never migrated)', async () => {
    const temp = makeTempDir('flakeboard-mcp-schema-');
    try {
      const path = join(temp.dir, 'old.db');
      const latest = MIGRATIONS.at(-1)!.version;
      await openStore(path).close();
      const setVersion = (v: number) => {
        const raw = new Database(path);
        raw.pragma(`user_version = ${v}`);
        raw.close();
      };
      setVersion(1);
      await expect(openLocalSource(path)).rejects.toThrow(`the database ${path} has schema 1, this flakeboard reads ${latest}: run \`flakeboard import\` or \`flakeboard serve\` on it once to upgrade it`);
      setVersion(latest + 1);
      await expect(openLocalSource(path)).rejects.toThrow(`the database ${path} was written by a newer flakeboard (schema ${latest + 1}, this version knows ${latest}): upgrade flakeboard`);
    } finally {
      temp.cleanup();
    }
  });
});
