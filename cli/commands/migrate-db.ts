import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import type { CopiedTable } from '../../server/store/engine/copy-to-postgres.js';
import { isPostgresUrl } from '../../server/store/engine/dialect.js';
import { openStore } from '../../server/store/engine/open.js';
import { DEFAULT_DB } from '../options.js';

interface MigrateDbOptions {
  from: string;
  to?: string;
  force?: boolean;
  json?: boolean;
}

export function registerMigrateDb(program: Command): void {
  program
    .command('migrate-db')
    .description('copy a SQLite database (runs, tests, users, tokens, sessions, review state, settings) into PostgreSQL, checking every table\'s count')
    .addOption(new Option('--from <file>', 'the SQLite database file').env('FLAKEBOARD_DB').default(DEFAULT_DB))
    .addOption(new Option('--to <url>', 'the PostgreSQL database, postgres://user:password@host:port/database').env('FLAKEBOARD_DATABASE_URL'))
    .option('--force', 'replace what the PostgreSQL database already holds')
    .option('--json', 'print one JSON object: { from, to, tables: { name: rows }, rows }')
    .action(async (options: MigrateDbOptions) => {
      process.exitCode = await migrateDb(options);
    });
}

async function migrateDb(options: MigrateDbOptions): Promise<number> {
  const from = resolve(options.from);
  if (!options.to) throw new Error('--to is required: the PostgreSQL URL to copy into (postgres://user:password@host:port/database)');
  if (!isPostgresUrl(options.to)) throw new Error('--to must be a PostgreSQL URL starting with postgres:// or postgresql://');
  if (isPostgresUrl(options.from)) throw new Error('--from must be a SQLite file, not a URL');
  if (!existsSync(from)) throw new Error(`no database at ${from}: pass --from or set FLAKEBOARD_DB`);

  // Loaded here, not at the top: the other commands never load the PostgreSQL driver.
  const [{ copySqliteToPostgres }, { openPostgres }] = await Promise.all([import('../../server/store/engine/copy-to-postgres.js'), import('../../server/store/engine/open-postgres.js')]);
  // Opened as any command opens it: an older file is brought to this version's schema first, so both sides match.
  const sqlite = openStore(from);
  try {
    const target = await openPostgres(options.to, { max: 2 });
    try {
      const interactive = !options.json && process.stderr.isTTY;
      const copied = await copySqliteToPostgres(sqlite.sqlite, target.pool, {
        force: options.force ?? false,
        onProgress: interactive ? (table, done, total) => process.stderr.write(`\r\x1b[2Kcopying ${table}: ${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`) : undefined,
      });
      if (interactive) process.stderr.write('\r\x1b[2K');
      print(from, target.url, copied, options.json ?? false);
      return 0;
    } finally {
      await target.close();
    }
  } finally {
    await sqlite.close();
  }
}

function print(from: string, to: string, copied: CopiedTable[], json: boolean): void {
  const rows = copied.reduce((sum, c) => sum + c.target, 0);
  if (json) {
    process.stdout.write(`${JSON.stringify({ from, to, tables: Object.fromEntries(copied.map((c) => [c.table, c.target])), rows })}\n`);
    return;
  }
  const width = Math.max(...copied.map((c) => c.table.length));
  const lines = [`copied ${from} into ${to}; rows per table (SQLite = PostgreSQL, checked):`];
  for (const c of copied) lines.push(`  ${c.table.padEnd(width)}  ${c.target.toLocaleString('en-US').padStart(12)}`);
  lines.push(`${copied.length} tables, ${rows.toLocaleString('en-US')} rows, in one transaction`);
  process.stdout.write(`${lines.join('\n')}\n`);
}
