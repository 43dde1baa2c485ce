import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli } from '../fixtures/testing/cli.js';
import { createTestTarget, sameDataOn } from '../fixtures/testing/engines.js';
import { buildHistoryDb } from '../fixtures/testing/history-db.js';
import { HAS_POSTGRES, POSTGRES_SKIP, queryRows } from '../fixtures/testing/postgres.js';
import { redactSecrets } from '../server/ai/redact.js';
import { POSTGRES_VERSION_TABLE, redactUrl } from '../server/store/engine/dialect.js';
import { MIGRATIONS } from '../server/store/engine/migrations.js';
import { openStore } from '../server/store/engine/open.js';
import type { AnyStore } from '../server/store/engine/types.js';

function onPostgres(name: string, body: () => void): void {
  if (HAS_POSTGRES) describe(name, body);
  else describe.skip(`${name}: ${POSTGRES_SKIP}`, body);
}

const CHECKOUT = 'checkout.spec.ts';
const ODD_TITLE = 'search for "quotes" / slashes #hash 100% ünïcødé — 日本語 🚀 <img src=x onerror=alert(1)>';

/** Every tool, with arguments that find something in the fixture history and some that find nothing. */
const CALLS: Array<[string, Record<string, unknown>]> = [
  ['list_flaky_tests', { days: 0 }],
  ['list_flaky_tests', { days: 0, project: 'chromium-mobile' }],
  ['list_flaky_tests', { days: 0, file: 'checkout' }],
  ['list_flaky_tests', { days: 0, file: 'account.spec.ts' }],
  ['test_history', { file: CHECKOUT, title: 'shows the order total with shipping' }],
  ['test_history', { file: CHECKOUT, title: 'applies a discount code', project: 'chromium-mobile', limit: 1 }],
  ['test_history', { file: 'catalog.spec.ts', title: ODD_TITLE }],
  ['test_history', { file: CHECKOUT, title: 'no such test' }],
  ['test_errors', { file: CHECKOUT, title: 'applies a discount code' }],
  ['test_errors', { file: CHECKOUT, title: 'no such test' }],
  ['diagnose_test', { file: 'account.spec.ts', title: 'loads the usage dashboard' }],
  ['diagnose_test', { file: CHECKOUT, title: 'applies a discount code' }],
  ['last_run_failures', {}],
  ['last_run_failures', { branch: 'main' }],
  ['last_run_failures', { branch: 'release' }],
];

/** `flakeboard mcp --db …` through the built binary, on the same history in a SQLite file and in PostgreSQL. */
onPostgres('mcp on PostgreSQL', () => {
  let history: Awaited<ReturnType<typeof buildHistoryDb>>;
  let copy: { store: AnyStore; remove(): Promise<void> };
  let url: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    history = await buildHistoryDb();
    const sqlite = openStore(history.db, { readonly: true });
    try {
      copy = await sameDataOn('postgres', sqlite);
    } finally {
      await sqlite.close();
    }
    url = copy.store.location;
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await copy?.remove();
    history?.cleanup();
  });

  async function connect(db: string): Promise<{ client: Client; stderr: () => string }> {
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--db', db], stderr: 'pipe', env: { ...getDefaultEnvironment() } });
    let stderr = '';
    transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'flakeboard-pg-test', version: '1' });
    client.onerror = (error) => {
      throw error;
    };
    await client.connect(transport);
    clients.push(client);
    return { client, stderr: () => stderr };
  }
  // What may differ between two answers: where they read, and when and how fast the diagnosis was made.
  // The source is named as an answer's text leaves: redacted (a URL's user too) in answers, as given in errors.
  const withoutSource = (answer: CallToolResult, where: string): unknown =>
    JSON.parse(JSON.stringify(answer, (key, value: unknown) => (key === 'generatedInMs' || key === 'timestamp' ? '<varies>' : value)).split(redactSecrets(where)).join('<source>').split(where).join('<source>'));
  const call = async (client: Client, [name, args]: [string, Record<string, unknown>]) => (await client.callTool({ name, arguments: args })) as CallToolResult;

  it('answers every tool as it does on the SQLite file with the same history', async () => {
    const [onFile, onPostgres] = await Promise.all([connect(history.db), connect(url)]);
    const tools = async (c: Client) => (await c.listTools()).tools;
    expect(await tools(onPostgres.client)).toEqual(await tools(onFile.client));
    let found = 0;
    for (const args of CALLS) {
      const [fromFile, fromPostgres] = await Promise.all([call(onFile.client, args), call(onPostgres.client, args)]);
      expect(withoutSource(fromPostgres, copy.store.target), JSON.stringify(args)).toEqual(withoutSource(fromFile, history.db));
      if (!fromFile.isError) found++;
    }
    // Not a comparison of two empty answers: most calls find the history.
    expect(found).toBeGreaterThanOrEqual(11);
    const flaky = (await call(onPostgres.client, CALLS[0]!)).structuredContent as { total: number; tests: { title: string; runs: number }[] };
    expect(flaky.total).toBe(1);
    expect(flaky.tests[0]).toMatchObject({ title: 'applies a discount code', runs: 6 });
    // Where it reads, with the password hidden (the test URL may have none), on stderr only.
    expect(onPostgres.stderr()).toContain(`flakeboard mcp: answering MCP on stdio from ${copy.store.target} (read-only)`);
  });

  it('a client that closes stdin still gets the answers under way, and the process ends at once (idle connections do not hold it)', async () => {
    const messages = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'diagnose_test', arguments: { file: CHECKOUT, title: 'applies a discount code' } } },
    ];
    const started = performance.now();
    const r = await runCli(['mcp', '--db', url], { env: cleanEnv(), input: messages.map((m) => JSON.stringify(m)).join('\n') + '\n' });
    expect(r.exitCode, r.stderr).toBe(0);
    // Idle pooled connections kept it alive for pg's idle timeout (10 s) after the last answer; now it ends at once.
    expect(performance.now() - started).toBeLessThan(8_000);
    const lines = r.stdout.split('\n').map((line) => JSON.parse(line) as { id: number; result: { isError?: boolean; structuredContent?: { test: unknown } } });
    expect(lines.map((l) => l.id)).toEqual([1, 2]);
    expect(lines[1]!.result.isError).toBeFalsy();
    expect(lines[1]!.result.structuredContent!.test).toMatchObject({ title: 'applies a discount code' });
  });

  it('never migrates: an empty database, an older or a newer schema is named and left as it is', async () => {
    const latest = MIGRATIONS.at(-1)!.version;
    const empty = await createTestTarget('postgres');
    try {
      const r = await runCli(['mcp', '--db', empty.target], { env: cleanEnv() });
      expect([r.exitCode, r.stdout]).toEqual([1, '']);
      expect(r.stderr.trim()).toBe(`flakeboard: the database ${redactUrl(empty.target)} has schema 0, this flakeboard reads ${latest}: run \`flakeboard import\` or \`flakeboard serve\` on it once to upgrade it (mcp opens it read-only)`);
      expect(await queryRows(empty.target, 'SELECT to_regclass($1) AS t', [POSTGRES_VERSION_TABLE])).toEqual([{ t: null }]);

      const store = await empty.open();
      try {
        await store.sql.run(`UPDATE ${POSTGRES_VERSION_TABLE} SET version = 1`);
        const older = await runCli(['mcp', '--db', empty.target], { env: cleanEnv() });
        expect([older.exitCode, older.stderr.trim()]).toEqual([1, `flakeboard: the database ${redactUrl(empty.target)} has schema 1, this flakeboard reads ${latest}: run \`flakeboard import\` or \`flakeboard serve\` on it once to upgrade it (mcp opens it read-only)`]);
        expect(await store.sql.value(`SELECT version FROM ${POSTGRES_VERSION_TABLE}`)).toBe(1);
        await store.sql.run(`UPDATE ${POSTGRES_VERSION_TABLE} SET version = ${latest + 1}`);
        const newer = await runCli(['mcp', '--db', empty.target], { env: cleanEnv() });
        expect([newer.exitCode, newer.stderr.trim()]).toEqual([1, `flakeboard: the database ${redactUrl(empty.target)} was written by a newer flakeboard (schema ${latest + 1}, this version knows ${latest}): upgrade flakeboard`]);
      } finally {
        await store.close();
      }
    } finally {
      await empty.remove();
    }
  });
});

describe('mcp on a PostgreSQL server it cannot reach', () => {
  it('says so in one line on stderr, the password hidden, nothing on stdout', async () => {
    const r = await runCli(['mcp', '--db', 'postgres://agent:s3cret-pw@127.0.0.1:1/flakeboard'], { env: cleanEnv() });
    expect([r.exitCode, r.stdout]).toEqual([1, '']);
    expect(r.stderr).not.toContain('s3cret-pw');
    expect(r.stderr.trim()).toMatch(/^flakeboard: cannot connect to PostgreSQL at postgres:\/\/agent:\*\*\*@127\.0\.0\.1:1\/flakeboard: .*ECONNREFUSED.*; check that the server runs[^\n]*$/);
  });
});
