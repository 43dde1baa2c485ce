/**
 * bench/mcp: how long each `flakeboard mcp` tool takes over a database of 400,000 results
 * (200 runs × 500 tests × 4 browsers over 90 days), the tools in process over the SDK's
 * InMemoryTransport and client, the database opened read-only as `flakeboard mcp --db` does.
 * Median and max of BENCH_REPEAT (5) calls each, after one warm-up call.
 *
 *   npm run bench -- mcp
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { openLocalSource } from '../../mcp/local-source.js';
import { createMcpServer } from '../../mcp/server.js';
import { buildDatabase } from '../api/build-db.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const data = join(root, 'bench/.data');
const repeat = Number(process.env.BENCH_REPEAT ?? 5);
const RUNS = 200;

mkdirSync(data, { recursive: true });
const dbPath = join(data, `mcp-${RUNS}.db`);
process.stderr.write(`building or reusing ${dbPath}\n`);
const built = await buildDatabase(dbPath, RUNS);

const source = await openLocalSource(dbPath);
const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
await createMcpServer(source, { version: 'bench' }).connect(serverSide);
const client = new Client({ name: 'bench', version: '1' });
await client.connect(clientSide);

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name}: ${(result.content[0] as { text: string }).text}`);
  return result;
}

// The most flaky test of the history is the one the other tools are asked about.
const flaky = (await call('list_flaky_tests', { days: 0, limit: 1 })).structuredContent as { tests: Array<{ title: string; file: string; projects: Array<{ project: string }> }> };
const test = flaky.tests[0]!;
const named = { file: test.file, title: test.title };
const cases: Array<[string, string, Record<string, unknown>]> = [
  ['list_flaky_tests', 'days 30, limit 100', { days: 30, limit: 100 }],
  ['list_flaky_tests', 'all history, limit 100', { days: 0, limit: 100 }],
  ['list_flaky_tests', 'file filter', { days: 0, limit: 20, file: test.file }],
  ['test_history', 'every project, limit 100', { ...named, limit: 100 }],
  ['test_history', 'one project', { ...named, project: test.projects[0]!.project, limit: 100 }],
  ['test_errors', 'every project', named],
  ['diagnose_test', 'most failing project', named],
  ['last_run_failures', 'newest run', {}],
];

const rows: string[] = [];
for (const [name, label, args] of cases) {
  await call(name, args);
  const times: number[] = [];
  for (let i = 0; i < repeat; i++) {
    const started = performance.now();
    await call(name, args);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  rows.push(`| ${name} | ${label} | ${times[Math.floor(times.length / 2)]!.toFixed(0)} | ${times.at(-1)!.toFixed(0)} |`);
}
await client.close();
await source.close();

process.stdout.write(`${built.results.toLocaleString('en')} results (${RUNS} runs), ${repeat} calls each after a warm-up, in ms:\n\n| tool | case | median | max |\n|---|---|---|---|\n${rows.join('\n')}\n`);
