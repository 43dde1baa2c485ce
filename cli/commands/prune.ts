import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { openAnyStore } from '../../server/store/engine/open-any.js';
import { checkpoint, fullVacuum, incrementalVacuum, planPrune, preparePrune, pruneBatch, type PrunePlan } from '../../server/store/write/prune.js';
import { fileSpace } from '../../server/store/engine/maintenance.js';
import { parseCutoff } from '../age.js';
import { dbOption, resolveDatabase } from '../options.js';
import { addEvidenceStoreOptions, evidenceOptionsOf, parseSize } from '../evidence-options.js';
import type { AnyStore } from '../../server/store/engine/types.js';
import type { EvidenceStore } from '../../server/store/evidence/evidence-store.js';
import { openEvidenceStore } from '../../server/store/evidence/open-evidence.js';
import { enforceEvidenceQuota, removeUnreferencedBlobs } from '../../server/store/evidence/sweep.js';
import { formatBytes, formatCount, requireDatabase } from './maintenance-common.js';
import { hostname } from 'node:os';
import { countAuditBefore, pruneAudit, recordAudit } from '../../server/store/accounts/audit.js';
import { SCHEDULED_ENV, type PruneSummary } from '../prune-summary.js';
import { auditCli } from './admin-common.js';

interface PruneOptions {
  olderThan: string;
  db: string;
  dryRun?: boolean;
  yes?: boolean;
  vacuum?: boolean;
  json?: boolean;
  evidence?: string;
  evidenceDir?: string;
  evidenceEndpoint?: string;
  evidenceMaxSize?: string;
}

/** Results per transaction: one or two runs of a typical size, a few hundred ms of write lock. */
const BATCH_RESULTS = 2000;
/**
 * The pause between batches. SQLite's busy handler in a waiting writer (a serve storing an
 * upload) retries every 100 ms at most; without the pause the next batch would take the lock
 * first every time, and an upload could wait for the whole prune.
 */
const PAUSE_MS = 120;


const say = (line: string): boolean => process.stdout.write(`${line}\n`);
const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

export function registerPrune(program: Command): void {
  const command = program
    .command('prune')
    .description('remove runs that started before a date, with everything under them, and reclaim the space')
    .requiredOption('--older-than <age>', 'an age (90d, 12w, 6m, 1y) or a date (YYYY-MM-DD, UTC)')
    .addOption(dbOption())
    .option('--dry-run', 'print what would be removed, remove nothing')
    .option('-y, --yes', 'remove without asking (required without a terminal)')
    .option('--vacuum', 'afterwards rewrite the file to give the space back to the disk (blocks every write while it runs: stop serve first)')
    .option('--json', 'print one JSON object')
    .option('--evidence-max-size <size>', 'then drop the oldest evidence (of passing tests first) until what is kept fits (e.g. 20GB)');
  addEvidenceStoreOptions(command).action(async (options: PruneOptions) => {
    process.exitCode = await prune(options);
  });
}

async function prune(options: PruneOptions): Promise<number> {
  const before = parseCutoff(options.olderThan);
  const quota = options.evidenceMaxSize === undefined ? null : parseSize(options.evidenceMaxSize, '--evidence-max-size');
  const target = resolveDatabase(options.db);
  if (target.kind === 'sqlite') requireDatabase(target.path);
  else if (options.vacuum) throw new Error('--vacuum rewrites a SQLite file; on PostgreSQL, autovacuum makes the space of removed runs reusable by itself (VACUUM FULL, which gives it back to the disk, is for its operators)');
  const store = await openAnyStore(target.kind === 'sqlite' ? target.path : target.url, { max: 1 });
  // File space and VACUUM are SQLite's: PostgreSQL's autovacuum makes deleted rows' space
  // reusable by itself, and giving it back to the disk (VACUUM FULL) is its operators' call.
  const sqlite = store.dialect === 'sqlite' ? store : null;
  let evidence: EvidenceStore | null = null;
  try {
    evidence = await openEvidenceStore(evidenceOptionsOf(options), store);
    const plan = await planPrune(store, before);
    const summary: PruneSummary = {
      before: new Date(before).toISOString(),
      dryRun: options.dryRun ?? false,
      runs: plan.runs,
      results: plan.results,
      attempts: plan.attempts,
      tests: 0,
      days: 0,
      auditEntries: await countAuditBefore(store, before),
      bytesEstimate: plan.bytesEstimate,
      reclaimedBytes: 0,
      freeBytes: sqlite ? fileSpace(sqlite.sqlite).free : 0,
      vacuum: 'none',
      evidenceRemoved: { blobs: 0, bytes: 0 },
      evidenceDropped: { blobs: 0, bytes: 0 },
    };
    if (!options.json) say(describePlan(plan, summary.auditEntries, options.dryRun ?? false));
    if (options.dryRun) {
      if (options.json) say(JSON.stringify(summary));
      return 0;
    }
    if (plan.runs === 0 && summary.auditEntries === 0 && !options.vacuum) {
      await pruneEvidence(store, evidence, quota, summary);
      if (options.json) say(JSON.stringify(summary));
      else for (const line of describeEvidence(summary)) say(line);
      return 0;
    }
    if ((plan.runs > 0 || summary.auditEntries > 0) && !options.yes && !(await confirm(plan, summary.auditEntries))) {
      if (!process.stdin.isTTY) {
        process.stderr.write('flakeboard: prune removes runs for good and there is no terminal to ask on: pass --yes to confirm\n');
        return 1;
      }
      say('Nothing removed.');
      return 1;
    }

    await preparePrune(store);
    const days = new Set<number>();
    summary.runs = summary.results = summary.attempts = 0;
    for (let batch = await pruneBatch(store, before, BATCH_RESULTS); batch; batch = await pruneBatch(store, before, BATCH_RESULTS)) {
      summary.runs += batch.runs;
      summary.results += batch.results;
      summary.attempts += batch.attempts;
      summary.tests += batch.tests;
      for (const d of batch.days) days.add(d);
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    }
    summary.days = days.size;
    summary.auditEntries = await pruneAudit(store, before);
    if (summary.runs > 0 || summary.auditEntries > 0) {
      const entry = { action: 'runs.prune', detail: { before: summary.before, runs: summary.runs, results: summary.results, auditEntries: summary.auditEntries } };
      if (process.env[SCHEDULED_ENV] === '1') await recordAudit(store, { ...entry, actor: { kind: 'system' }, source: `serve on ${hostname()}` });
      else await auditCli(store, entry);
    }
    await pruneEvidence(store, evidence, quota, summary);

    if (sqlite) {
      if (options.vacuum) {
        summary.reclaimedBytes = fullVacuum(sqlite);
        summary.vacuum = 'full';
      } else {
        summary.reclaimedBytes = incrementalVacuum(sqlite);
        if (fileSpace(sqlite.sqlite).autoVacuum === 'incremental') summary.vacuum = 'incremental';
      }
      checkpoint(sqlite);
      summary.freeBytes = fileSpace(sqlite.sqlite).free;
    }

    if (options.json) say(JSON.stringify(summary));
    else for (const line of describeDone(summary)) say(line);
    return 0;
  } finally {
    await evidence?.close();
    await store.close();
    // Kysely closes only a connection it has used; this command never does.
    if (sqlite?.sqlite.open) sqlite.sqlite.close();
  }
}

/** The blobs of the removed runs that no other run names, then the quota. */
async function pruneEvidence(store: AnyStore, evidence: EvidenceStore, quota: number | null, summary: PruneSummary): Promise<void> {
  summary.evidenceRemoved = await removeUnreferencedBlobs(store, evidence);
  if (quota !== null) summary.evidenceDropped = await enforceEvidenceQuota(store, evidence, quota);
}

function describeEvidence(s: PruneSummary): string[] {
  const lines: string[] = [];
  if (s.evidenceRemoved.blobs > 0) lines.push(`✓ Removed ${formatCount(s.evidenceRemoved.blobs)} evidence files no run names any more (${formatBytes(s.evidenceRemoved.bytes)}).`);
  if (s.evidenceDropped.blobs > 0) lines.push(`✓ Dropped ${formatCount(s.evidenceDropped.blobs)} evidence files, oldest and passing tests' first, to keep within --evidence-max-size (${formatBytes(s.evidenceDropped.bytes)}); their runs say the evidence was dropped.`);
  return lines;
}

function describePlan(plan: PrunePlan, auditEntries: number, dryRun: boolean): string {
  const cut = day(plan.before);
  const audit = auditEntries > 0 ? `${formatCount(auditEntries)} audit trail entries from before ${cut}` : '';
  if (plan.runs === 0) return audit ? `${dryRun ? 'Would remove' : 'To remove'}: no run, ${audit}.` : `No run started before ${cut}: nothing to prune.`;
  const span = plan.oldest === null || plan.newest === null ? '' : ` (${day(plan.oldest)} to ${day(plan.newest)})`;
  return `${dryRun ? 'Would remove' : 'To remove'}: ${formatCount(plan.runs)} runs started before ${cut}${span}, ${formatCount(plan.results)} results, ${formatCount(plan.attempts)} attempts, about ${formatBytes(plan.bytesEstimate)}${audit ? `; ${audit}` : ''}.`;
}

function describeDone(s: PruneSummary): string[] {
  const lines: string[] = describeEvidence(s);
  if (s.runs > 0) {
    lines.push(`✓ Removed ${formatCount(s.runs)} runs started before ${s.before.slice(0, 10)}: ${formatCount(s.results)} results, ${formatCount(s.attempts)} attempts${s.tests > 0 ? `, ${formatCount(s.tests)} tests left with no results` : ''}; rebuilt the rollups of ${formatCount(s.days)} days.`);
  }
  if (s.auditEntries > 0) lines.push(`✓ Removed ${formatCount(s.auditEntries)} audit trail entries from before ${s.before.slice(0, 10)}.`);
  if (s.vacuum === 'full') lines.push(`✓ VACUUM gave ${formatBytes(s.reclaimedBytes)} back to the disk; the file now gives space back after each prune by itself.`);
  else if (s.vacuum === 'incremental') lines.push(`✓ Gave ${formatBytes(s.reclaimedBytes)} back to the disk.`);
  else if (s.freeBytes > 0) {
    lines.push(
      `${formatBytes(s.freeBytes)} are free inside the file and will be reused by new imports. To give them back to the disk, run once with --vacuum: it rewrites the whole file and blocks every write while it runs, so stop serve first.`,
    );
  }
  return lines;
}

/** Asks on a terminal; without one there is nobody to ask, and the caller says so. */
async function confirm(plan: PrunePlan, auditEntries: number): Promise<boolean> {
  if (!process.stdin.isTTY || !process.stderr.isTTY) return false;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const what = plan.runs > 0 ? `these ${formatCount(plan.runs)} runs` : `these ${formatCount(auditEntries)} audit trail entries`;
    const answer = await rl.question(`Remove ${what} for good? [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
