import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { QUARANTINE_PATTERN_MAX } from '../../core/gate/classify.js';
import { DEFAULT_QUARANTINE_EXPIRY, parseExpiry, quarantineLastDay } from '../../core/gate/expiry.js';
import { addQuarantine, listQuarantine, removeQuarantine, type StoredQuarantine } from '../../server/store/read/quarantine.js';
import { findUser } from '../../server/store/accounts/users.js';
import { defaultOwner } from '../../server/store/read/owners.js';
import { dbOption } from '../options.js';
import { auditCli, formatTable, printLine, withStore } from './admin-common.js';
import { inertLines, regexInert, terminalJson } from '../../core/terminal-text.js';

interface AddOptions {
  db: string;
  file?: string;
  project?: string;
  reason: string;
  owner?: string;
  expires: string;
  by?: string;
}

export function registerQuarantine(program: Command): void {
  const quarantine = program
    .command('quarantine')
    .description('known flaky tests that stop blocking the CI gate for a while, with a reason, an owner and an expiry');

  quarantine
    .command('add')
    .description('quarantine a test (`*` in the title or file matches anything)')
    .argument('<title>', 'the test title, or a pattern such as "checkout *"')
    .addOption(dbOption())
    .option('--file <path>', 'only in this spec file (or pattern)')
    .option('--project <name>', 'only on this Playwright project')
    .requiredOption('--reason <text>', 'why: what is known about the flakiness, a ticket')
    .option('--owner <name>', "who is fixing it (default: the test's owners, from its annotations, tags or CODEOWNERS)")
    .option('--expires <when>', 'when it stops applying: 14d, 4w, YYYY-MM-DD or never', DEFAULT_QUARANTINE_EXPIRY)
    .option('--by <username>', 'the user adding it, for the record')
    .action(async (title: string, options: AddOptions) => {
      process.exitCode = await run(async () =>
        withStore(options.db, async (store) => {
          if (title.length > QUARANTINE_PATTERN_MAX || (options.file?.length ?? 0) > QUARANTINE_PATTERN_MAX) throw new Error(`titles and files are at most ${QUARANTINE_PATTERN_MAX} characters`);
          if (options.reason.trim() === '') throw new Error('--reason must say why');
          const now = Date.now();
          const expiresAt = parseExpiry(options.expires, now);
          const by = options.by ? await findUser(store, options.by) : null;
          if (options.by && !by) throw new Error(`no user named ${options.by}`);
          const owner = options.owner ?? (await defaultOwner(store, title, options.file ?? null));
          const id = await addQuarantine(store, { title, file: options.file ?? null, project: options.project ?? null, reason: options.reason.trim(), owner, expiresAt, createdBy: by?.id ?? null }, now);
          const entry = (await listQuarantine(store)).find((q) => q.id === id)!;
          await auditCli(store, {
            action: 'quarantine.add',
            actor: by ? { id: by.id, name: by.username } : null,
            target: { type: 'quarantine', id, label: entry.title },
            detail: { file: entry.file, project: entry.project, reason: entry.reason, owner: entry.owner, expiresAt: entry.expiresAt === null ? null : new Date(entry.expiresAt).toISOString() },
          });
          printLine(`quarantined entry ${id}: ${describe(entry, now)}`);
        }),
      );
    });

  quarantine
    .command('list')
    .description('the entries, in force and expired')
    .addOption(dbOption())
    .option('--all', 'also entries that were removed')
    .option('--json', 'print JSON')
    .action(async (options: { db: string; all?: boolean; json?: boolean }) => {
      process.exitCode = await run(async () =>
        withStore(options.db, async (store) => {
          const now = Date.now();
          const entries = await listQuarantine(store, { includeRemoved: options.all ?? false });
          if (options.json) return printLine(terminalJson(entries.map((q) => ({ ...q, through: through(q), state: state(q, now) })), 2));
          if (entries.length === 0) return printLine('no quarantined tests: add one with `flakeboard quarantine add TITLE --reason WHY`');
          const rows = entries.map((q) => [String(q.id), state(q, now), q.title, q.file ?? '*', q.project ?? '*', q.owner ?? '', through(q) ?? 'never', q.reason]);
          printLine(formatTable([['ID', 'STATE', 'TITLE', 'FILE', 'PROJECT', 'OWNER', 'THROUGH', 'REASON'], ...rows]));
        }),
      );
    });

  quarantine
    .command('remove')
    .description('lift an entry (kept in `list --all`)')
    .argument('<id>', 'the entry id from `quarantine list`')
    .addOption(dbOption())
    .action(async (id: string, options: { db: string }) => {
      process.exitCode = await run(async () =>
        withStore(options.db, async (store) => {
          const n = Number(id);
          if (!Number.isInteger(n) || n < 1 || !(await removeQuarantine(store, n, null, Date.now()))) throw new Error(`no quarantine entry ${id} in force`);
          const entry = (await listQuarantine(store, { includeRemoved: true })).find((q) => q.id === n);
          await auditCli(store, { action: 'quarantine.remove', target: { type: 'quarantine', id: n, label: entry?.title ?? null }, detail: entry ? { file: entry.file, project: entry.project } : null });
          printLine(`removed quarantine entry ${n}`);
        }),
      );
    });

  quarantine
    .command('export')
    .description('what a test run can read to skip quarantined tests: JSON, or a --grep-invert pattern')
    .addOption(dbOption())
    .option('--format <format>', 'json or grep', 'json')
    .option('-o, --output <file>', 'write to a file instead of standard output')
    .action(async (options: { db: string; format: string; output?: string }) => {
      process.exitCode = await run(async () =>
        withStore(options.db, async (store) => {
          if (options.format !== 'json' && options.format !== 'grep') throw new Error('--format must be json or grep');
          const now = Date.now();
          const active = (await listQuarantine(store)).filter((q) => state(q, now) === 'active');
          const text = options.format === 'json' ? `${terminalJson(exportJson(active, now), 2)}\n` : `${grepPattern(active)}\n`;
          const lost = options.format === 'grep' ? grepScopeLost(active) : [];
          if (lost.length > 0) process.stderr.write(`flakeboard quarantine: --format grep matches titles only; entries ${lost.map((q) => q.id).join(', ')} are limited to a file or project, which the JSON export keeps\n`);
          if (options.output) await writeFile(options.output, text);
          else process.stdout.write(text);
        }),
      );
    });
}

/**
 * The file a fixture reads: the entries in force, as patterns over title, file and project, each
 * with the last UTC day it applies (`through`, null for no end), the date every command prints.
 */
export function exportJson(active: readonly StoredQuarantine[], now: number) {
  return {
    generatedAt: new Date(now).toISOString(),
    tests: active.map((q) => ({ id: q.id, title: q.title, file: q.file, project: q.project, reason: q.reason, owner: q.owner, through: through(q) })),
  };
}

/**
 * One regular expression for `npx playwright test --grep-invert "$(…)"`. Playwright matches it
 * against the project, file and titles joined by spaces, the test's own title last: each entry
 * is anchored to a whole last title (` title$`), so `search *` cannot hide "research notes".
 * Everything but `*` is escaped; an empty list gives a pattern that matches nothing. A file or
 * project scope cannot be said this way: grepScopeLost names the entries that lose it.
 */
export function grepPattern(active: readonly StoredQuarantine[]): string {
  if (active.length === 0) return '$^';
  // A character that could act in a terminal is written as its \uXXXX escape: the same match, inert text.
  const escape = (text: string) => text.split('*').map((part) => regexInert(part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))).join('[^\\n]*');
  return active.map((q) => `(?:^| )${escape(q.title)}$`).join('|');
}

export const grepScopeLost = (active: readonly StoredQuarantine[]) => active.filter((q) => q.file !== null || q.project !== null);

function state(q: StoredQuarantine, now: number): 'active' | 'expired' | 'removed' {
  if (q.removedAt !== null) return 'removed';
  return q.expiresAt !== null && q.expiresAt <= now ? 'expired' : 'active';
}

function describe(q: StoredQuarantine, now: number): string {
  const where = [q.file ? `in ${q.file}` : null, q.project ? `on ${q.project}` : null].filter(Boolean).join(' ');
  return `"${q.title}"${where ? ` ${where}` : ''}, ${q.expiresAt ? `through ${quarantineLastDay(q.expiresAt)}` : 'with no end'} (${state(q, now)})${q.owner ? `, owner ${q.owner}` : ''}: ${q.reason}`;
}

/** The last UTC day it applies, null for no end. */
const through = (q: StoredQuarantine): string | null => (q.expiresAt === null ? null : quarantineLastDay(q.expiresAt));

async function run(work: () => Promise<void>): Promise<number> {
  try {
    await work();
    return 0;
  } catch (error) {
    process.stderr.write(`${inertLines(`flakeboard quarantine: ${(error as Error).message}`)}\n`);
    return 1;
  }
}
