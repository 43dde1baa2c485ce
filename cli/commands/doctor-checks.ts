/**
 * The checks of `flakeboard doctor`, each a line: ok, warn (!) or fail (✗), with what to do.
 * Files and environment here; what is read inside the database comes from server/store.
 */
import { accessSync, constants, existsSync, readFileSync, statfsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { redactUrl } from '../../server/store/engine/dialect.js';
import { inspect, LATEST_SCHEMA, openForInspection } from '../../server/store/engine/maintenance.js';
import { parseCutoff } from '../age.js';
import { describeCounts, formatBytes } from './maintenance-common.js';

export type Status = 'ok' | 'warn' | 'fail';

export interface Check {
  check: string;
  status: Status;
  message: string;
  /** What to do about a warning or failure. */
  fix?: string;
}

const ok = (check: string, message: string): Check => ({ check, status: 'ok', message });
const warn = (check: string, message: string, fix: string): Check => ({ check, status: 'warn', message, fix });
const fail = (check: string, message: string, fix: string): Check => ({ check, status: 'fail', message, fix });

/** Above this size the default is quick_check (pages and rows, not every index entry). */
export const FULL_CHECK_LIMIT = 1024 ** 3;
const WAL_WARN = 256 * 1024 ** 2;
const DISK_FAIL = 100 * 1024 ** 2;

const RESTORE = 'stop serve, keep a copy of the damaged file, then put the last backup in its place (or rescue what is left with `sqlite3 DB ".recover" | sqlite3 NEW.db`)';

/** The database file: found, readable, integrity, schema, contents, WAL and permissions. */
export function databaseChecks(path: string, options: { full: boolean }): Check[] {
  if (!existsSync(path)) return [fail('database', `no database at ${path}`, 'pass --db or set FLAKEBOARD_DB; `flakeboard import` or `flakeboard serve` creates one')];
  const size = statSync(path).size;
  // Before this check opens the file (and so makes a WAL of its own).
  const walPath = `${path}-wal`;
  const wal = existsSync(walPath) ? statSync(walPath).size : null;
  try {
    accessSync(path, constants.R_OK);
  } catch {
    return [fail('database', `${path} cannot be read by this user`, `run flakeboard as the file's owner, or \`chown\` it to this user`), ...permissionChecks(path)];
  }
  const checks: Check[] = [];
  let writable = true;
  try {
    accessSync(path, constants.W_OK);
  } catch {
    writable = false;
  }
  checks.push(writable ? ok('database', `${path} (${formatBytes(size)})`) : warn('database', `${path} (${formatBytes(size)}) is read-only for this user`, 'serve answers reads but refuses uploads: `chmod 600` it as its owner, or run flakeboard as the owner'));

  let sqlite;
  try {
    sqlite = openForInspection(path);
  } catch (error) {
    checks.push(fail('integrity', `cannot open the database: ${(error as Error).message}`, RESTORE));
    return [...checks, ...permissionChecks(path)];
  }
  try {
    const full = options.full || size <= FULL_CHECK_LIMIT;
    let found;
    try {
      found = inspect(sqlite, { full });
    } catch (error) {
      checks.push(fail('integrity', `reading the database failed: ${(error as Error).message}`, RESTORE));
      return [...checks, ...permissionChecks(path)];
    }
    if (found.problems.length > 0) {
      checks.push(fail('integrity', `${found.check} found ${found.problems.length >= 20 ? '20 or more' : found.problems.length} problem${found.problems.length === 1 ? '' : 's'}, first: ${found.problems[0]}`, RESTORE));
    } else {
      checks.push(ok('integrity', full ? 'integrity_check ok' : `quick_check ok (the file is over ${formatBytes(FULL_CHECK_LIMIT)}; --full checks every index entry too)`));
    }

    if (found.schemaVersion === LATEST_SCHEMA) checks.push(ok('schema', `version ${found.schemaVersion}, as this flakeboard writes`));
    else if (found.schemaVersion < LATEST_SCHEMA) checks.push(warn('schema', `version ${found.schemaVersion}; this flakeboard writes ${LATEST_SCHEMA}`, 'the next `serve`, `import` or `prune` upgrades it: take a `flakeboard backup` first'));
    else checks.push(fail('schema', `version ${found.schemaVersion}, written by a newer flakeboard (this one knows ${LATEST_SCHEMA})`, 'upgrade flakeboard: `npm install flakeboard@latest`'));

    const { space, counts } = found;
    const free = space.free > 0 ? `, ${formatBytes(space.free)} of it free` : '';
    if (!counts) checks.push(fail('contents', 'the flakeboard tables are missing', 'this is not a flakeboard database: check --db'));
    else {
      const line = `${describeCounts(counts)}; ${formatBytes(space.pages * space.pageSize)}${free}`;
      if (counts.users === 0) checks.push(warn('contents', line, 'no users yet: the first `flakeboard serve` creates `admin` and prints its password'));
      else if (space.free > 64 * 1024 ** 2 && space.free > (space.pages * space.pageSize) / 4) {
        checks.push(warn('contents', line, `${formatBytes(space.free)} of the file is unused: add --vacuum to your next \`flakeboard prune\` to give it back to the disk (stop serve first)`));
      } else checks.push(ok('contents', line));
    }

    if (found.journalMode !== 'wal') checks.push(warn('wal', `journal mode is ${found.journalMode}`, 'the next `serve` or `import` switches it to WAL, which lets reads go on while a report is written'));
    else if (wal !== null && wal > WAL_WARN) checks.push(warn('wal', `the WAL file is ${formatBytes(wal)}`, 'a long read keeps it from being folded back into the file; it shrinks when serve restarts'));
    else checks.push(ok('wal', wal === null ? 'WAL mode, no WAL file (nothing has the database open)' : `WAL mode, WAL file ${formatBytes(wal)}`));
  } finally {
    sqlite.close();
  }
  return [...checks, ...permissionChecks(path)];
}

/** Database, WAL and shared-memory files: readable by others is a leak (password hashes, reports). */
export function permissionChecks(path: string): Check[] {
  if (process.platform === 'win32') return [ok('permissions', 'not checked on Windows (NTFS ACLs)')];
  const files = [path, `${path}-wal`, `${path}-shm`].filter((file) => existsSync(file));
  const open = files.map((file) => ({ file, mode: statSync(file).mode & 0o777 })).filter((f) => (f.mode & 0o077) !== 0);
  const fix = `chmod 600 ${files.map(shellQuote).join(' ')}`;
  const others = open.filter((f) => (f.mode & 0o007) !== 0);
  const list = (fs: typeof open) => fs.map((f) => `${f.file} (${f.mode.toString(8).padStart(4, '0')})`).join(', ');
  if (others.length > 0) return [fail('permissions', `readable by other users: ${list(others)}`, fix)];
  if (open.length > 0) return [warn('permissions', `readable by the group: ${list(open)}`, fix)];
  const owner = statSync(path).uid;
  if (typeof process.getuid === 'function' && owner !== process.getuid()) {
    return [warn('permissions', `0600, but owned by uid ${owner}, not this user (uid ${process.getuid()})`, 'run flakeboard as the owner, or `chown` the files')];
  }
  return [ok('permissions', `0600 (${files.map((f) => f.slice(path.length) || 'db').join(', ')})`)];
}

const shellQuote = (text: string): string => (/^[\w./+-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`);

/** Names this version reads; anything else under FLAKEBOARD_ is most likely a typo. */
const KNOWN = new Set([
  'FLAKEBOARD_DB', 'FLAKEBOARD_PORT', 'FLAKEBOARD_HOST', 'FLAKEBOARD_BODY_LIMIT_MB', 'FLAKEBOARD_PRUNE_OLDER_THAN', 'FLAKEBOARD_SERVER', 'FLAKEBOARD_TOKEN',
  'FLAKEBOARD_DATABASE_URL', 'FLAKEBOARD_SCRYPT_N', 'FLAKEBOARD_ANALYTICS_WORKER', 'FLAKEBOARD_AI_BASE_URL', 'FLAKEBOARD_AI_MODEL', 'FLAKEBOARD_AI_API_KEY', 'FLAKEBOARD_AI_TIMEOUT_MS',
]);
const SECRET = /TOKEN|KEY|PASSWORD|SECRET/;
// A database URL may carry a password: shown without it.
const URLS = new Set(['FLAKEBOARD_DATABASE_URL']);

/** FLAKEBOARD_* in effect (secrets shown as set, never their value) and the AI model settings. */
export function settingsChecks(env: NodeJS.ProcessEnv): Check[] {
  const names = Object.keys(env).filter((name) => name.startsWith('FLAKEBOARD_')).sort();
  const checks: Check[] = [];
  const shown = names.map((name) => `${name}=${SECRET.test(name) ? '(set, hidden)' : JSON.stringify(URLS.has(name) ? redactUrl(env[name] ?? '') : env[name])}`);
  const unknown = names.filter((name) => !KNOWN.has(name));
  if (unknown.length > 0) checks.push(warn('settings', `not read by this version: ${unknown.join(', ')}`, `check the spelling; the settings are ${[...KNOWN].join(', ')}`));
  const bad: string[] = [];
  const whole = (name: string, min: number, max: number) => {
    const value = env[name];
    if (value !== undefined && !(Number.isInteger(Number(value)) && Number(value) >= min && Number(value) <= max)) bad.push(`${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}`);
  };
  whole('FLAKEBOARD_PORT', 0, 65535);
  whole('FLAKEBOARD_BODY_LIMIT_MB', 1, 10_000);
  if (env.FLAKEBOARD_PRUNE_OLDER_THAN !== undefined) {
    try {
      parseCutoff(env.FLAKEBOARD_PRUNE_OLDER_THAN);
    } catch (error) {
      bad.push(`FLAKEBOARD_PRUNE_OLDER_THAN: ${(error as Error).message}`);
    }
  }
  if (bad.length > 0) checks.push(fail('settings', bad.join('; '), '`flakeboard serve` refuses to start with these: correct or unset them'));
  checks.push(ok('settings', shown.length > 0 ? shown.join(' ') : 'no FLAKEBOARD_* variables set: the defaults apply'));

  const baseUrl = env.FLAKEBOARD_AI_BASE_URL?.trim();
  const model = env.FLAKEBOARD_AI_MODEL?.trim();
  if (!baseUrl && !model) checks.push(ok('ai', 'the local engine answers (no model configured)'));
  else if (!baseUrl || !model) {
    checks.push(warn('ai', `${baseUrl ? 'FLAKEBOARD_AI_BASE_URL' : 'FLAKEBOARD_AI_MODEL'} is set without ${baseUrl ? 'FLAKEBOARD_AI_MODEL' : 'FLAKEBOARD_AI_BASE_URL'}: the local engine answers`, 'set both to use a model, or neither'));
  } else {
    let url: URL | null;
    try {
      url = new URL(baseUrl);
    } catch {
      url = null;
    }
    if (!url || !/^https?:$/.test(url.protocol)) checks.push(fail('ai', `FLAKEBOARD_AI_BASE_URL is not an http(s) address: ${JSON.stringify(baseUrl)}`, 'set it to the API root, e.g. http://localhost:11434/v1'));
    else checks.push(ok('ai', `model ${model} at ${url.origin}${url.pathname} (API key ${env.FLAKEBOARD_AI_API_KEY?.trim() ? 'set' : 'not set'})`));
  }
  return checks;
}

/** Node against package.json's engines (">=X.Y.Z"). */
export function nodeCheck(version = process.versions.node): Check {
  const wanted = readEngines();
  const floor = /^>=\s*(\d+)\.(\d+)\.(\d+)$/.exec(wanted ?? '');
  if (!floor) return ok('node', `Node ${version}`);
  const have = version.split('.').map(Number);
  const need = floor.slice(1).map(Number);
  const cmp = have[0]! - need[0]! || have[1]! - need[1]! || have[2]! - need[2]!;
  return cmp >= 0 ? ok('node', `Node ${version} (needs ${wanted})`) : fail('node', `Node ${version}; flakeboard needs ${wanted}`, 'install a newer Node (20.19 or later)');
}

function readEngines(): string | null {
  // dist/*.js and cli/commands/*.ts sit one and two folders below package.json.
  for (const up of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as { name?: string; engines?: { node?: string } };
      if (pkg.name === 'flakeboard') return pkg.engines?.node ?? null;
    } catch {
      // not this one
    }
  }
  return null;
}

/** Free space where the database (and a VACUUM's or backup's copy of it) is written. */
export function diskCheck(path: string): Check {
  const folder = existsSync(path) ? dirname(path) : existsSync(dirname(path)) ? dirname(path) : process.cwd();
  const stats = statfsSync(folder);
  const free = stats.bavail * stats.bsize;
  const size = existsSync(path) ? statSync(path).size : 0;
  const line = `${formatBytes(free)} free in ${folder}`;
  if (free < DISK_FAIL) return fail('disk', line, 'imports fail when the disk fills: free space or move the database (--db)');
  if (free < size * 2) return warn('disk', `${line}; the database is ${formatBytes(size)}`, 'VACUUM needs up to twice the database size, a backup into this folder once: free space first');
  return ok('disk', line);
}
