import type { Command } from 'commander';
import { dbOption, resolveDatabase } from '../options.js';
import { addEvidenceStoreOptions, evidenceOptionsOf } from '../evidence-options.js';
import { evidenceChecks } from './doctor-evidence.js';
import { databaseChecks, diskCheck, nodeCheck, settingsChecks, type Check } from './doctor-checks.js';
import { inertLine, terminalJson } from '../../core/terminal-text.js';

interface DoctorOptions {
  db: string;
  full?: boolean;
  json?: boolean;
  cleanOrphans?: boolean;
  evidence?: string;
  evidenceDir?: string;
  evidenceEndpoint?: string;
}

const MARK = { ok: '✓', warn: '!', fail: '✗' } as const;

export function registerDoctor(program: Command): void {
  const command = program
    .command('doctor')
    .description('check the database, its files, the settings and Node; exits 1 when something is broken')
    .addOption(dbOption())
    .option('--full', 'the full integrity_check even on big files (it reads every index entry)')
    .option('--json', 'print one JSON object: { ok, checks: [{ check, status, message, fix }] }')
    .option('--clean-orphans', 'remove evidence files no run names (older than an hour)');
  addEvidenceStoreOptions(command).action(async (options: DoctorOptions) => {
    const target = resolveDatabase(options.db);
    const checks: Check[] =
      target.kind === 'postgres'
        ? [...(await (await import('./doctor-postgres.js')).postgresChecks(target.url)), ...settingsChecks(process.env), nodeCheck()]
        : [...databaseChecks(target.path, { full: options.full ?? false }), ...settingsChecks(process.env), nodeCheck(), diskCheck(target.path)];
    checks.push(...(await evidenceChecks(target, evidenceOptionsOf(options), options.cleanOrphans ?? false)));
    const failed = checks.some((c) => c.status === 'fail');
    if (options.json) process.stdout.write(`${terminalJson({ ok: !failed, checks })}\n`);
    else {
      for (const c of checks) {
        process.stdout.write(`${inertLine(`${MARK[c.status]} ${c.check}: ${c.message}`)}\n`);
        if (c.fix) process.stdout.write(`${inertLine(`  → ${c.fix}`)}\n`);
      }
    }
    process.exitCode = failed ? 1 : 0;
  });
}
