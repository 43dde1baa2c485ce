import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli } from '../../fixtures/testing/cli.js';
import { buildHistoryDb, QUARANTINE_REASON } from '../../fixtures/testing/history-db.js';
import { EVIDENCE_REPORT } from '../../fixtures/testing/evidence-db.js';
import { startServe, type ServeProcess } from '../../fixtures/testing/serve-process.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';

// The built binary as an agent's MCP client starts it: `flakeboard mcp` on stdio, through the SDK's own client.
let history: Awaited<ReturnType<typeof buildHistoryDb>>;
const clients: Client[] = [];

beforeAll(async () => {
  history = await buildHistoryDb();
});

afterAll(async () => {
  for (const client of clients) await client.close();
  history?.cleanup();
});

async function connect(args: string[], env: Record<string, string> = {}): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...args], stderr: 'pipe', env: { ...getDefaultEnvironment(), ...env } });
  let stderr = '';
  transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'flakeboard-cli-test', version: '1' });
  // Any line on stdout that is not the protocol fails the client here.
  client.onerror = (error) => {
    throw error;
  };
  await client.connect(transport);
  clients.push(client);
  return { client, stderr: () => stderr };
}

/** A loopback port that nothing listens on: one the system just gave out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult;
const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const data = (r: CallToolResult) => r.structuredContent as any;
const CHECKOUT = 'checkout.spec.ts';
const ODD_TITLE = 'search for "quotes" / slashes #hash 100% ünïcødé — 日本語 🚀 <img src=x onerror=alert(1)>';

/** Every tool once, with what the fixture history holds. */
async function expectEveryTool(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(['compare_attempts', 'diagnose_test', 'failure_evidence', 'last_run_failures', 'list_flaky_tests', 'test_errors', 'test_history']);

  const flaky = data(await call(client, 'list_flaky_tests', { days: 0 }));
  expect(flaky.total).toBe(1);
  expect(flaky.tests[0]).toMatchObject({ title: 'applies a discount code', file: CHECKOUT, runs: 6, failed: 4 });
  expect(flaky.tests[0].projects.find((p: { project: string }) => p.project === 'chromium-mobile').quarantine.reason).toBe(QUARANTINE_REASON);

  const historyAnswer = data(await call(client, 'test_history', { file: CHECKOUT, title: 'shows the order total with shipping' }));
  expect(historyAnswer.results.map((r: { commit: string }) => r.commit)).toEqual(['cccc333', 'bbbb222', 'aaaa111']);

  // A title with / # % ? and non-ASCII characters goes whole through the API's path.
  const odd = data(await call(client, 'test_history', { file: 'catalog.spec.ts', title: ODD_TITLE }));
  expect(odd.test.title).toBe(ODD_TITLE);
  expect(odd.results.map((r: { status: string }) => r.status)).toEqual(['passed', 'passed', 'passed']);

  const errors = data(await call(client, 'test_errors', { file: CHECKOUT, title: 'applies a discount code' }));
  expect(errors.errors.map((e: { count: number }) => e.count)).toEqual([4]);

  const diagnosis = await call(client, 'diagnose_test', { file: 'account.spec.ts', title: 'loads the usage dashboard' });
  expect(diagnosis.isError, text(diagnosis)).toBeFalsy();
  expect(data(diagnosis).test).toEqual({ file: 'account.spec.ts', title: 'loads the usage dashboard', project: 'chromium' });
  expect(data(diagnosis).diagnosis).toMatchObject({ engine: 'local', rootCause: expect.any(String), confidence: expect.any(Number) });
  expect(text(diagnosis)).toContain(`root cause: ${data(diagnosis).diagnosis.rootCause}`);

  const last = data(await call(client, 'last_run_failures', { branch: 'main' }));
  expect(last.run).toMatchObject({ branch: 'main', commit: 'bbbb222', total: 19, failed: 5 });
  expect(last.failed.map((t: { title: string }) => t.title).sort()).toEqual(['loads the usage dashboard', 'logs out from the header', 'shows the order total with shipping']);
  expect(last.flaky).toHaveLength(2);

  const unknown = await call(client, 'test_errors', { file: CHECKOUT, title: 'no such test' });
  expect(unknown.isError).toBe(true);
  expect(text(unknown)).toContain('unknown test: no stored results for title "no such test" in file "checkout.spec.ts"');
}

describe('flakeboard mcp (built binary)', () => {
  it('answers every tool over stdio from a database file, and says where on stderr only', async () => {
    const { client, stderr } = await connect(['--db', history.db]);
    await expectEveryTool(client);
    expect(stderr()).toContain(`flakeboard mcp: answering MCP on stdio from ${history.db} (read-only)`);
  });

  it('the README\'s client configuration starts it', async () => {
    const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
    const section = readme.slice(readme.indexOf('## For coding agents (MCP)'));
    const config = JSON.parse(/```json\n([\s\S]*?)```/.exec(section)![1]!) as { mcpServers: { flakeboard: { command: string; args: string[] } } };
    const { command, args } = config.mcpServers.flakeboard;
    expect([command, ...args.slice(0, 4)]).toEqual(['npx', 'flakeboard', 'mcp', '--db', '.flakeboard/flakeboard.db']);
    // `npx flakeboard` is the binary; the default database path is resolved in the working directory.
    const { client } = await connect(args.slice(2).map((a) => (a === '.flakeboard/flakeboard.db' ? history.db : a)));
    expect((await client.listTools()).tools).toHaveLength(7);
  });

  it('failure_evidence: a run imported with its evidence by the CLI, its screenshot and trace read from the folder beside the database', async () => {
    const dir = makeTempDir('flakeboard-mcp-evidence-');
    try {
      const db = join(dir.dir, 'evidence.db');
      const imported = await runCli(['import', EVIDENCE_REPORT, '--db', db, '--approve']);
      expect(imported.exitCode, imported.stderr).toBe(0);
      const before = existsSync(`${db}-evidence`);
      const { client } = await connect(['--db', db]);
      const answer = await call(client, 'failure_evidence', { file: CHECKOUT, title: 'applies a discount code' });
      expect(answer.isError, text(answer)).toBeFalsy();
      const images = answer.content.filter((c) => c.type === 'image');
      expect(images).toHaveLength(2);
      expect(text(answer)).toContain(`- failing action: "Expect \\"toHaveText\\"" on "locator('#total')"`);
      expect(before).toBe(true);
    } finally {
      dir.cleanup();
    }
  });

  it('failure_evidence on a database without an evidence folder says there is none, and makes no folder', async () => {
    const { client } = await connect(['--db', history.db]);
    const answer = await call(client, 'failure_evidence', { file: CHECKOUT, title: 'applies a discount code' });
    expect(answer.isError).toBe(true);
    expect(existsSync(`${history.db}-evidence`)).toBe(false);
  });

  it('stdout is JSON-RPC only; a client that closes stdin still gets the answers under way, and the process ends', async () => {
    const messages = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'diagnose_test', arguments: { file: CHECKOUT, title: 'applies a discount code' } } },
    ];
    const r = await runCli(['mcp', '--db', history.db], { env: cleanEnv(), input: messages.map((m) => JSON.stringify(m)).join('\n') + '\n' });
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = r.stdout.split('\n').map((line) => JSON.parse(line) as { id: number; result: { isError?: boolean; structuredContent?: { test: unknown } } });
    expect(lines.map((l) => l.id)).toEqual([1, 2]);
    expect(lines[1]!.result.isError).toBeFalsy();
    expect(lines[1]!.result.structuredContent!.test).toMatchObject({ title: 'applies a discount code' });
  });

  it('is listed by --help, and takes a database or a server, not both', async () => {
    expect((await runCli(['--help'], { env: cleanEnv() })).stdout).toMatch(/^ {2}mcp \[options\] +an MCP server on stdio for coding agents/m);
    const both = await runCli(['mcp', '--db', history.db, '--server', 'http://127.0.0.1:4680', '--token', 't'], { env: cleanEnv() });
    expect([both.exitCode, both.stdout, both.stderr]).toEqual([1, '', 'flakeboard: mcp: give --db or --server, not both']);
  });

  it('refuses to start without a database, saying so on stderr and nothing on stdout', async () => {
    const r = await runCli(['mcp', '--db', `${history.dir}/missing.db`], { env: cleanEnv() });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`no database at ${history.dir}/missing.db: point --db at the file the runs are stored in`);
  });

  describe('over a running server with an API token', () => {
    let serve: ServeProcess;
    let token: string;

    beforeAll(async () => {
      serve = await startServe(history.db, { cwd: history.dir });
      const created = await runCli(['token', 'create', 'coding-agent', '--scope', 'read', '--db', history.db], { env: cleanEnv() });
      expect(created.exitCode, created.stderr).toBe(0);
      token = created.stdout.trim().split('\n').at(-1)!;
    });

    afterAll(async () => {
      await serve?.stop();
    });

    it('answers every tool through the API with --server and --token', async () => {
      const { client, stderr } = await connect(['--server', serve.url, '--token', token]);
      await expectEveryTool(client);
      expect(stderr()).toContain(`answering MCP on stdio from ${serve.url}`);
    });

    it('a wrong token (here from FLAKEBOARD_SERVER and FLAKEBOARD_TOKEN) is a tool error that names the call, the status and what to check', async () => {
      const { client } = await connect([], { FLAKEBOARD_SERVER: serve.url, FLAKEBOARD_TOKEN: 'fbt_not-a-real-token' });
      const r = await call(client, 'list_flaky_tests');
      expect(r.isError).toBe(true);
      expect(text(r)).toMatch(new RegExp(`^GET ${serve.url.replace(/[.]/g, '\\.')}/api/flaky-tests answered 401: .+ \\(check --token or FLAKEBOARD_TOKEN\\)$`));
    });

    it('a server that is not there is a tool error naming its address', async () => {
      const port = await closedPort();
      const { client } = await connect(['--server', `http://127.0.0.1:${port}`, '--token', token]);
      const r = await call(client, 'last_run_failures');
      expect(r.isError).toBe(true);
      expect(text(r)).toBe(`cannot reach http://127.0.0.1:${port} (GET http://127.0.0.1:${port}/api/recent-uploads): ECONNREFUSED`);
    });
  });
});
