import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { openHttpSource } from './http-source.js';
import { openLocalSource } from './local-source.js';
import { createMcpServer } from './server.js';
import type { HistorySource } from './source.js';
import type { EvidenceOptions } from '../server/store/evidence/open-evidence.js';

export interface McpCommandOptions {
  /** The database file's resolved path or a postgres:// URL (printed only redacted); ignored when `server` is given. */
  db: string;
  server?: string | undefined;
  token?: string | undefined;
  version: string;
  /** Where a database's evidence is (default: the folder beside a SQLite file). */
  evidence?: EvidenceOptions;
}

/**
 * `flakeboard mcp`: the server on stdin/stdout until the client closes stdin. stdout carries
 * the protocol alone, so anything that would print there goes to stderr.
 */
export async function runMcpStdio(options: McpCommandOptions): Promise<void> {
  console.log = console.error;
  console.info = console.error;
  const source: HistorySource = options.server ? openHttpSource(options.server, options.token ?? '') : await openLocalSource(options.db, { evidenceOptions: options.evidence ?? {} });
  const server = createMcpServer(source, { version: options.version });
  const transport = new StdioServerTransport();
  // When the client closes stdin the process ends by itself once the calls under way have
  // answered: nothing else keeps it alive (the database is read on this thread).
  server.server.onclose = () => void source.close();
  await server.connect(transport);
  process.stderr.write(`flakeboard mcp: answering MCP on stdio from ${source.where} (read-only)\n`);
}
