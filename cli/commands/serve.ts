import { Option, type Command } from 'commander';
import { parseCutoff } from '../age.js';
import { dbOption, resolveDbPath } from '../options.js';

interface ServeOptions {
  port: string;
  host: string;
  db: string;
  open?: boolean;
  demo?: boolean;
  bodyLimit: string;
  trustProxy?: boolean;
  pruneOlderThan?: string;
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('start the dashboard: the JSON API and the UI on one port')
    .addOption(new Option('--port <number>', 'port to listen on (0 picks a free one)').env('FLAKEBOARD_PORT').default('4680'))
    .addOption(new Option('--host <address>', 'address to bind; 0.0.0.0 for a team server').env('FLAKEBOARD_HOST').default('127.0.0.1'))
    .addOption(dbOption())
    .option('--open', 'open the dashboard in a browser')
    .option('--demo', 'fill an empty database with a generated month of demo history first')
    .addOption(new Option('--body-limit <megabytes>', 'largest accepted upload').env('FLAKEBOARD_BODY_LIMIT_MB').default('100'))
    .option('--trust-proxy', 'behind a reverse proxy: take the client address from X-Forwarded-For (sign-in limits are per address)')
    .addOption(new Option('--prune-older-than <age>', 'at start and every 24 h, remove runs older than this (90d, 12w, 6m): flakeboard prune').env('FLAKEBOARD_PRUNE_OLDER_THAN'))
    .action(async (options: ServeOptions) => {
      if (options.pruneOlderThan) parseCutoff(options.pruneOlderThan);
      // Loaded here, not at the top: `flakeboard import` never pays for Fastify.
      const { serve } = await import('../serve.js');
      process.exitCode = await serve({
        port: parseNumber(options.port, '--port', 0, 65535),
        host: options.host,
        dbPath: resolveDbPath(options.db),
        open: options.open ?? false,
        demo: options.demo ?? false,
        bodyLimitBytes: parseNumber(options.bodyLimit, '--body-limit', 1, 10_000) * 1024 * 1024,
        trustProxy: options.trustProxy ?? false,
        pruneOlderThan: options.pruneOlderThan ?? null,
      });
    });
}

function parseNumber(value: string, flag: string, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${flag} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}`);
  return n;
}
