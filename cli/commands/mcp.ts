import { Option, type Command } from 'commander';
import { addEvidenceStoreOptions, evidenceOptionsOf } from '../evidence-options.js';
import { dbOption, resolveDbTarget } from '../options.js';

interface McpOptions {
  db: string;
  evidence?: string;
  evidenceDir?: string;
  evidenceEndpoint?: string;
  server?: string;
  token?: string;
}

export function registerMcp(program: Command, version: string): void {
  const command = program
    .command('mcp')
    .description('an MCP server on stdio for coding agents: flaky tests, a test\'s history, errors and diagnosis, the last run\'s failures (read-only)')
    .addOption(dbOption())
    .addOption(new Option('--server <url>', 'read a flakeboard server instead of a database').env('FLAKEBOARD_SERVER'))
    .addOption(new Option('--token <token>', 'an API token from `flakeboard token create` (with --server)').env('FLAKEBOARD_TOKEN'));
  // The screenshots and traces failure_evidence reads with --db (a server reads its own).
  addEvidenceStoreOptions(command).action(async (options: McpOptions, command: Command) => {
      if (options.server && command.getOptionValueSource('db') === 'cli') throw new Error('mcp: give --db or --server, not both');
      // Loaded only here: the MCP SDK costs other commands nothing.
      const { runMcpStdio } = await import('../../mcp/stdio.js');
      await runMcpStdio({ db: resolveDbTarget(options.db), server: options.server, token: options.token, version, evidence: evidenceOptionsOf(options) });
    });
}
