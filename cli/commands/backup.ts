import { existsSync, linkSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { backupTo, openForInspection, verifyCopy } from '../../server/store/engine/maintenance.js';
import { redactUrl } from '../../server/store/engine/dialect.js';
import { dbOption, resolveDatabase } from '../options.js';
import { defaultEvidenceDir } from '../../server/store/evidence/open-evidence.js';
import { describeCounts, formatBytes, requireDatabase } from './maintenance-common.js';

interface BackupOptions {
  db: string;
  force?: boolean;
  json?: boolean;
}

const say = (line: string): boolean => process.stdout.write(`${line}\n`);

export function registerBackup(program: Command): void {
  program
    .command('backup')
    .description('copy the database into FILE (0600), safely while serve runs, and check the copy')
    .argument('<file>', 'the copy to write; refused if it exists, unless --force')
    .addOption(dbOption())
    .option('--force', 'replace FILE if it exists')
    .option('--json', 'print one JSON object')
    .action(async (file: string, options: BackupOptions) => {
      process.exitCode = await backup(resolve(file), options);
    });
}

async function backup(target: string, options: BackupOptions): Promise<number> {
  const database = resolveDatabase(options.db);
  if (database.kind === 'postgres') {
    throw new Error(`backup copies a SQLite file; back up PostgreSQL (${redactUrl(database.url)}) with its own tools: pg_dump --format=custom --file=flakeboard.dump DATABASE_URL`);
  }
  const source = database.path;
  requireDatabase(source);
  if (target === source) throw new Error(`the backup cannot be the database itself (${source})`);
  if (!existsSync(dirname(target))) throw new Error(`cannot write ${target}: the folder ${dirname(target)} does not exist`);
  if (existsSync(target) && !options.force) throw new Error(`${target} already exists: pass --force to replace it`);

  // Written beside the target under a temporary name and put in place only once checked, so a
  // failed or interrupted backup never leaves a half copy (or destroys the previous one).
  const temporary = join(dirname(target), `.${basename(target)}.${process.pid}.partial`);
  const sqlite = openForInspection(source);
  try {
    await backupTo(sqlite, temporary);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new Error(`the backup failed: ${(error as Error).message}`, { cause: error });
  } finally {
    sqlite.close();
  }
  let checked;
  try {
    checked = verifyCopy(temporary);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new Error(`the copy cannot be read back: ${(error as Error).message}`, { cause: error });
  }
  if (checked.problems.length > 0) {
    rmSync(temporary, { force: true });
    throw new Error(`the copy failed its integrity check (${checked.problems.slice(0, 3).join('; ')}); nothing written to ${target}. Run \`flakeboard doctor --full\` on the database`);
  }
  if (options.force) {
    renameSync(temporary, target);
  } else {
    // link() refuses an existing name, so a file that appeared meanwhile is never replaced.
    try {
      linkSync(temporary, target);
    } finally {
      rmSync(temporary, { force: true });
    }
  }

  // Evidence blobs are files that never change once written: copied by the tools that copy
  // folders (rsync, cp -a, a bucket's versioning), after the database, not into it.
  const evidenceDir = defaultEvidenceDir(source);
  if (options.json) say(JSON.stringify({ file: target, bytes: checked.bytes, schemaVersion: checked.schemaVersion, ...checked.counts, evidence: { included: false, dir: evidenceDir } }));
  else {
    say(`✓ Backed up ${source} to ${target}: ${formatBytes(checked.bytes)}, ${describeCounts(checked.counts)}; integrity check ok.`);
    say(`  Evidence (screenshots, videos, traces) is not in the copy: copy ${evidenceDir} (or the bucket given to --evidence) after it, e.g. rsync -a; its files never change.`);
  }
  return 0;
}
