import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { isLoopback } from '../server/plugins/security.js';
import { isPostgresUrl } from '../server/store/engine/dialect.js';

export const DEFAULT_DB = '.flakeboard/flakeboard.db';

/** --db, shared by every command that opens the store. */
export function dbOption(): Option {
  return new Option('--db <path>', 'SQLite database file, or a postgres:// URL (also FLAKEBOARD_DATABASE_URL)').env('FLAKEBOARD_DB').default(DEFAULT_DB);
}

export type DatabaseTarget = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

/** What --db names: a PostgreSQL URL, or a SQLite file (resolved against the current folder). */
export function resolveDatabase(db: string | undefined): DatabaseTarget {
  return db !== undefined && isPostgresUrl(db) ? { kind: 'postgres', url: db.trim() } : { kind: 'sqlite', path: resolve(db ?? DEFAULT_DB) };
}

/** What openAnyStore takes for --db: the URL as given, or the file's absolute path. */
export function resolveDbTarget(db: string | undefined): string {
  const target = resolveDatabase(db);
  return target.kind === 'postgres' ? target.url : target.path;
}

/**
 * Before every command: --db wins; without it FLAKEBOARD_DATABASE_URL names the database (both
 * it and FLAKEBOARD_DB set is a contradiction, said as such), so every command that opens the
 * database reads the same setting a team server is started with.
 */
export function databaseFromEnvironment(program: Command): void {
  program.hook('preAction', (_program, command) => {
    if (!command.options.some((o) => o.attributeName() === 'db')) return;
    // `check --server` asks a server: the database setting is not used.
    if (command.getOptionValue('server')) return;
    const url = process.env.FLAKEBOARD_DATABASE_URL;
    if (command.getOptionValueSource('db') !== 'cli' && url) {
      if (command.getOptionValueSource('db') === 'env') refuse(1, 'FLAKEBOARD_DB and FLAKEBOARD_DATABASE_URL are both set: unset one, or pass --db');
      if (!isPostgresUrl(url)) refuse(1, 'FLAKEBOARD_DATABASE_URL must be a PostgreSQL URL (postgres://user:password@host:port/database); a SQLite file goes in FLAKEBOARD_DB');
      command.setOptionValueWithSource('db', url, 'env');
    }
  });
}

function refuse(code: number, message: string): never {
  process.stderr.write(`flakeboard: ${message}\n`);
  process.exit(code);
}

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** A duration such as 90d, 12h, 30m or 2w, in milliseconds, between `min` and `max` (both ms). */
export function parseDuration(value: string, flag: string, min: number, max: number): number {
  const match = /^(\d{1,6})([mhdw])$/.exec(value.trim());
  const ms = match ? Number(match[1]) * UNIT_MS[match[2]!]! : NaN;
  if (!(ms >= min && ms <= max)) {
    throw new Error(`${flag} must be a duration such as 90d, 12h or 30m (m minutes, h hours, d days, w weeks) from ${formatDuration(min)} to ${formatDuration(max)}, not ${JSON.stringify(value)}`);
  }
  return ms;
}

function formatDuration(ms: number): string {
  for (const unit of ['w', 'd', 'h'] as const) if (ms % UNIT_MS[unit]! === 0) return `${ms / UNIT_MS[unit]!}${unit}`;
  return `${Math.round(ms / UNIT_MS.m!)}m`;
}

// Names proxy-addr (Fastify's trustProxy) knows for well-known ranges.
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * --trust-proxy: how many proxies stand in front (1 = only the one that connects), or which
 * addresses they connect from (a comma list of addresses, CIDRs, or loopback, linklocal,
 * uniquelocal). Trusting every hop is not offered: a client could then pick its own address.
 * A count only works with a proxy on this machine (`host` on loopback): on any other address a
 * client that connects directly would be believed.
 */
export function parseTrustProxy(value: string, host: string): number | string {
  const text = value.trim();
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops < 1 || hops > 10) throw new Error(`--trust-proxy must be the number of proxies in front, from 1 to 10, not ${text}`);
    if (!isLoopback(host)) {
      throw new Error(`--trust-proxy ${hops} counts hops, which is safe only with a proxy on this machine (--host 127.0.0.1); on ${host}, name the proxy's addresses instead (e.g. --trust-proxy 10.0.0.5)`);
    }
    return hops;
  }
  const entries = text.split(',').map((e) => e.trim());
  for (const entry of entries) {
    if (!trustEntryOk(entry)) {
      throw new Error(
        `--trust-proxy takes the number of proxies in front (e.g. 1) or their addresses (e.g. 127.0.0.1,10.0.0.0/8); ${JSON.stringify(entry)} is neither` +
          (entry === 'true' ? ' (trusting every hop would let any client choose its address in X-Forwarded-For)' : ''),
      );
    }
  }
  return entries.join(',');
}

function trustEntryOk(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const [address, prefix, extra] = entry.split('/');
  if (extra !== undefined || !address) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  // No proxy fleet spans more than a /8 (or an IPv6 /32): shorter prefixes, alone or together,
  // come close to trusting every address, which would let a client choose its own.
  return /^\d{1,3}$/.test(prefix) && Number(prefix) >= (family === 4 ? 8 : 32) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** A name or uploader shown on screens: some text, and not a page of it. */
export function labelProblem(flag: string, value: string | undefined): string | null {
  if (value === undefined) return null;
  if (value.trim() === '') return `${flag} must not be empty`;
  if (value.trim().length > 255) return `${flag} must be at most 255 characters`;
  return null;
}
