/**
 * `serve --prune-older-than AGE`: runs `flakeboard prune --older-than AGE --yes --json` on the
 * same database at start and every 24 hours, as a child process. Off the server's thread and
 * process entirely: the prune's batches are short transactions, so the server's reads never
 * wait (WAL) and its writes wait for one batch at most; its analytics cache sees the runs
 * table change and refreshes by itself.
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { isPostgresUrl } from '../server/store/engine/dialect.js';
import { SCHEDULED_ENV, type PruneSummary } from './prune-summary.js';

export const PRUNE_EVERY_MS = 24 * 3600 * 1000;

export interface PruneLog {
  info(message: string): void;
  error(message: string): void;
}

/** `dbPath`: the SQLite file, or the PostgreSQL URL serve was given. */
export function scheduleDailyPrune(options: { dbPath: string; olderThan: string; log: PruneLog; every?: number; bin?: string; evidenceArgs?: string[] }): { stop(): void } {
  // The binary this serve was started from (bin/flakeboard.js, or npx's link to it).
  const bin = options.bin ?? process.argv[1];
  let child: ChildProcess | null = null;
  const run = (): void => {
    // One at a time: a prune still going a day later (a huge backlog) is not started twice.
    if (child || !bin) return;
    // The same evidence store as serve's (bucket and endpoint hold no secret; credentials come from the environment).
    const args = [bin, 'prune', '--older-than', options.olderThan, '--yes', '--json', ...(options.evidenceArgs ?? [])];
    // A URL's password must not show in the process list: the child reads it from its environment.
    const { FLAKEBOARD_DB: _file, ...env } = process.env;
    // The audit trail names the server as the one who pruned, not whoever started it.
    const scheduled = { ...env, [SCHEDULED_ENV]: '1' };
    const where = isPostgresUrl(options.dbPath) ? { env: { ...scheduled, FLAKEBOARD_DATABASE_URL: options.dbPath } } : { args: ['--db', options.dbPath], env: scheduled };
    child = execFile(process.execPath, [...args, ...(where.args ?? [])], { maxBuffer: 1024 * 1024, env: where.env }, (error, stdout, stderr) => {
      child = null;
      if (error) {
        options.log.error(`prune --older-than ${options.olderThan} failed: ${stderr.trim() || error.message}`);
        return;
      }
      try {
        options.log.info(describe(JSON.parse(stdout) as PruneSummary, options.olderThan));
      } catch {
        options.log.error(`prune --older-than ${options.olderThan} answered: ${stdout.trim()}`);
      }
    });
  };
  const timer = setInterval(run, options.every ?? PRUNE_EVERY_MS);
  // Never what keeps serve alive; a prune in flight ends with it (each batch is atomic).
  timer.unref();
  const stop = (): void => {
    clearInterval(timer);
    child?.kill('SIGTERM');
  };
  process.once('exit', stop);
  run();
  return { stop };
}

function describe(s: PruneSummary, olderThan: string): string {
  const space = s.reclaimedBytes > 0 ? `, ${s.reclaimedBytes} bytes given back to the disk` : '';
  return `prune --older-than ${olderThan}: removed ${s.runs} runs started before ${s.before} (${s.results} results, ${s.attempts} attempts)${space}`;
}
