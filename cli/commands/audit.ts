import type { Command } from 'commander';
import { AUDIT_ACTIONS, type AuditEntry } from '../../core/api/audit.js';
import { terminalJson } from '../../core/terminal-text.js';
import { listAudit, type AuditFilter } from '../../server/store/accounts/audit.js';
import { dbOption, parseDuration } from '../options.js';
import { formatTable, printLine, withStore } from './admin-common.js';

interface AuditOptions {
  db: string;
  actor?: string;
  action?: string;
  target?: string;
  run?: string;
  since?: string;
  until?: string;
  limit: string;
  json?: boolean;
}

const DAY = 86_400_000;

/** `flakeboard audit`: the audit trail, newest first (docs/audit.md). Reads only. */
export function registerAudit(program: Command): void {
  program
    .command('audit')
    .description('who changed what, when and from where: sign-ins, reviews, deletes, quarantine, users, tokens, settings (newest first)')
    .addOption(dbOption())
    .option('--actor <name>', 'only what this user did')
    .option('--action <action>', `one action, or every action of a subject with a trailing dot (run.); e.g. ${AUDIT_ACTIONS.slice(0, 4).join(', ')}`)
    .option('--target <type[:id]>', 'only what was done to this: run:42, user:7, quarantine:3, token:5, or a type alone (run)')
    .option('--run <id>', 'everything done to one run: who uploaded, reviewed or deleted it (same as --target run:ID)')
    .option('--since <when>', 'from this date (YYYY-MM-DD, UTC) or this long ago (30m, 12h, 7d, 2w)')
    .option('--until <when>', 'before this date (YYYY-MM-DD, UTC) or this long ago')
    .option('--limit <n>', 'at most this many entries (1 to 10000)', '100')
    .option('--json', 'print a JSON array')
    .action(async (options: AuditOptions) => {
      const filter = filterOf(options);
      const limit = Number(options.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new Error(`--limit must be a whole number from 1 to 10000, not ${JSON.stringify(options.limit)}`);
      const { items, total } = await withStore(options.db, (store) => listAudit(store, filter, { limit, offset: 0 }));
      if (options.json) return printLine(terminalJson(items, 2));
      if (items.length === 0) return printLine('no audit trail entries match');
      printLine(formatTable([['TIME', 'ACTOR', 'FROM', 'ACTION', 'TARGET', 'DETAIL'], ...items.map(row)]));
      if (total > items.length) printLine(`(${items.length} of ${total}: narrow with --since, --actor, --action or --target, or raise --limit)`);
    });
}

export function filterOf(options: Omit<AuditOptions, 'db' | 'limit' | 'json'>, now = Date.now()): AuditFilter {
  if (options.run !== undefined && options.target !== undefined) throw new Error('--run and --target both name a target: give one');
  if (options.run !== undefined && !/^\d{1,15}$/.test(options.run.trim())) throw new Error(`--run must be a run id (a number), not ${JSON.stringify(options.run)}`);
  const target = options.run !== undefined ? `run:${options.run.trim()}` : options.target?.trim();
  const filter: AuditFilter = {};
  if (options.actor?.trim()) filter.actor = options.actor.trim();
  if (options.action?.trim()) filter.action = options.action.trim();
  if (target) filter.target = target;
  if (options.since !== undefined) filter.since = moment(options.since, '--since', now);
  if (options.until !== undefined) filter.until = moment(options.until, '--until', now);
  return filter;
}

function moment(value: string, flag: string, now: number): number {
  const text = value.trim();
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (date) {
    const ms = Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3]));
    if (new Date(ms).toISOString().slice(0, 10) !== text) throw new Error(`${flag}: ${text} is not a date`);
    return ms;
  }
  return now - parseDuration(text, flag, 60_000, 3650 * DAY);
}

function row(e: AuditEntry): string[] {
  const actor = e.actor.name ?? (e.actor.kind === 'user' ? '(unknown name)' : '');
  const who = e.actor.kind === 'user' ? actor : `${actor}${actor ? ' ' : ''}(${e.actor.kind})`;
  const target = e.target ? `${e.target.type}${e.target.id !== null ? ` ${e.target.id}` : ''}${e.target.label ? ` "${e.target.label}"` : ''}` : '';
  return [`${e.at.slice(0, 19).replace('T', ' ')}Z`, who, e.source, e.action, target, e.detail ? JSON.stringify(e.detail) : ''];
}
