import { Option, type Command } from 'commander';
import { parseCutoff } from '../age.js';
import { addEvidenceStoreOptions, evidenceOptionsOf, parseSize } from '../evidence-options.js';
import { dbOption, parseDuration, parseTrustProxy, resolveDbTarget } from '../options.js';

interface ServeOptions {
  port: string;
  host: string;
  db: string;
  open?: boolean;
  demo?: boolean;
  bodyLimit: string;
  trustProxy?: string;
  sessionMaxAge: string;
  secureCookies?: boolean;
  hsts?: boolean;
  pruneOlderThan?: string;
  pgPoolSize: string;
  pgStatementTimeout: string;
  evidence?: string;
  evidenceDir?: string;
  evidenceEndpoint?: string;
  attachmentMaxSize?: string;
}

const HOUR = 3_600_000;

/**
 * A server's PostgreSQL pool: 10 connections (pg's default), and statements cut off after two
 * minutes, so a runaway query cannot hold a connection (and the answer) for ever; as long as
 * an upload waits for another writer's lock on SQLite (writer/runner.ts LOCK_WAIT_MS), since
 * the same waits for locks count as statements on PostgreSQL.
 */
const SERVE_POOL = { max: 10, statementTimeoutS: 120 };

export function registerServe(program: Command): void {
  const command = program
    .command('serve')
    .description('start the dashboard: the JSON API and the UI on one port')
    .addOption(new Option('--port <number>', 'port to listen on (0 picks a free one)').env('FLAKEBOARD_PORT').default('4680'))
    .addOption(new Option('--host <address>', 'address to bind; 0.0.0.0 for a team server').env('FLAKEBOARD_HOST').default('127.0.0.1'))
    .addOption(dbOption())
    .option('--open', 'open the dashboard in a browser')
    .option('--demo', 'fill an empty database with a generated month of demo history first')
    .addOption(new Option('--body-limit <megabytes>', 'largest accepted upload').env('FLAKEBOARD_BODY_LIMIT_MB').default('100'))
    .addOption(
      new Option('--trust-proxy <hops|addresses>', 'behind a reverse proxy: how many proxies stand in front (e.g. 1), or their addresses (e.g. 127.0.0.1,10.0.0.0/8); client address and protocol then come from X-Forwarded-For and -Proto').env(
        'FLAKEBOARD_TRUST_PROXY',
      ),
    )
    .addOption(new Option('--session-max-age <duration>', 'a session ends this long after sign-in however active (e.g. 7d, 24h)').env('FLAKEBOARD_SESSION_MAX_AGE').default('7d'))
    .option('--secure-cookies', 'mark cookies Secure on every answer (they are whenever the request came over HTTPS)')
    .option('--hsts', 'send Strict-Transport-Security on answers over HTTPS')
    .addOption(new Option('--prune-older-than <age>', 'at start and every 24 h, remove runs older than this (90d, 12w, 6m): flakeboard prune').env('FLAKEBOARD_PRUNE_OLDER_THAN'))
    .addOption(new Option('--pg-pool-size <n>', 'PostgreSQL: connections in the pool of requests (and in each worker\'s)').env('FLAKEBOARD_PG_POOL_SIZE').default(String(SERVE_POOL.max)))
    .addOption(
      new Option('--pg-statement-timeout <seconds>', 'PostgreSQL: a statement running longer is cancelled (the request answers 503); 0 for none').env('FLAKEBOARD_PG_STATEMENT_TIMEOUT').default(String(SERVE_POOL.statementTimeoutS)),
    );
  addEvidenceStoreOptions(command).option('--attachment-max-size <size>', 'largest evidence blob an upload may send (e.g. 100MB)', '100MB');
  command.action(async (options: ServeOptions) => {
    if (options.pruneOlderThan) parseCutoff(options.pruneOlderThan);
    // Loaded here, not at the top: `flakeboard import` never pays for Fastify.
    const { serve } = await import('../serve.js');
    process.exitCode = await serve({
      port: parseNumber(options.port, '--port', 0, 65535),
      host: options.host,
      dbPath: resolveDbTarget(options.db),
      open: options.open ?? false,
      demo: options.demo ?? false,
      bodyLimitBytes: parseNumber(options.bodyLimit, '--body-limit', 1, 10_000) * 1024 * 1024,
      trustProxy: options.trustProxy === undefined ? null : parseTrustProxy(options.trustProxy, options.host),
      sessionMaxAgeMs: parseDuration(options.sessionMaxAge, '--session-max-age', HOUR, 365 * 24 * HOUR),
      secureCookies: options.secureCookies ?? false,
      hsts: options.hsts ?? false,
      pruneOlderThan: options.pruneOlderThan ?? null,
      evidence: evidenceOptionsOf(options),
      evidenceMaxBytes: parseSize(options.attachmentMaxSize ?? '100MB', '--attachment-max-size'),
      postgres: {
        max: parseNumber(options.pgPoolSize, '--pg-pool-size', 1, 1000),
        statementTimeoutMs: parseNumber(options.pgStatementTimeout, '--pg-statement-timeout', 0, 86_400) * 1000,
      },
    });
  });
}

function parseNumber(value: string, flag: string, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${flag} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}`);
  return n;
}
