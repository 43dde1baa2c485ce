import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { LATEST_SCHEMA } from '../../server/store/engine/maintenance.js';
import { openAnyStore } from '../../server/store/engine/open-any.js';
import type { EvidenceOptions } from '../../server/store/evidence/open-evidence.js';
import { openEvidenceStore } from '../../server/store/evidence/open-evidence.js';
import { checkEvidence, removeOrphans } from '../../server/store/evidence/sweep.js';
import { formatBytes, formatCount } from './maintenance-common.js';
import type { Check } from './doctor-checks.js';

/**
 * The evidence store against the database: how many blobs and bytes the runs keep, blobs the
 * database names that the store lacks (lost: restored at different times) and blobs no row
 * names (orphans: left by a crash between a blob and its row). `cleanOrphans` removes those
 * older than an hour (younger ones may be an import's blob about to get its row).
 */
export async function evidenceChecks(target: { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string }, options: EvidenceOptions, cleanOrphans: boolean): Promise<Check[]> {
  if (target.kind === 'sqlite' && !existsSync(target.path)) return [];
  // doctor never upgrades a database: an older schema is checked once the next command has.
  if (target.kind === 'sqlite' && schemaOf(target.path) !== LATEST_SCHEMA) return [];
  let store;
  try {
    store = await openAnyStore(target.kind === 'sqlite' ? target.path : target.url, { max: 1 });
  } catch {
    // The database checks above say why it cannot be opened.
    return [];
  }
  const evidence = await openEvidenceStore(options, store);
  try {
    if (evidence.location === 'none') return [{ check: 'evidence', status: 'ok', message: 'no evidence store (screenshots and traces are not kept)', fix: 'pass --evidence s3://bucket/prefix or --evidence-dir to serve and import' }];
    const health = await checkEvidence(store, evidence);
    const checks: Check[] = [{ check: 'evidence', status: 'ok', message: `${formatCount(health.blobs)} files, ${formatBytes(health.bytes)} in ${evidence.location}` }];
    if (health.missing.length > 0) {
      checks.push({
        check: 'evidence missing',
        status: 'warn',
        message: `${formatCount(health.missing.length)} files the database names are not in ${evidence.location} (e.g. ${health.missing[0]})`,
        fix: 'restore the evidence store from the backup taken with the database; runs show the evidence as missing meanwhile',
      });
    }
    if (health.orphans.length > 0 && cleanOrphans) {
      const removed = await removeOrphans(store, evidence, health.orphans);
      checks.push({ check: 'evidence orphans', status: 'ok', message: `removed ${formatCount(removed.blobs)} files no run names (${formatBytes(removed.bytes)}); ${formatCount(health.orphans.length - removed.blobs)} written in the last hour kept` });
    } else if (health.orphans.length > 0) {
      const bytes = health.orphans.reduce((sum, o) => sum + o.size, 0);
      checks.push({ check: 'evidence orphans', status: 'warn', message: `${formatCount(health.orphans.length)} files (${formatBytes(bytes)}) in ${evidence.location} that no run names`, fix: 'flakeboard doctor --clean-orphans removes them' });
    }
    return checks;
  } catch (error) {
    return [{ check: 'evidence', status: 'fail', message: `the evidence store ${evidence.location} cannot be read: ${(error as Error).message}`, fix: 'check the folder, or the bucket, endpoint and AWS credentials' }];
  } finally {
    await evidence.close();
    await store.close();
  }
}

function schemaOf(path: string): number | null {
  try {
    const sqlite = new Database(path, { readonly: true, fileMustExist: true });
    try {
      return Number(sqlite.pragma('user_version', { simple: true }));
    } finally {
      sqlite.close();
    }
  } catch {
    return null;
  }
}
