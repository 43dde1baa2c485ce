import { basename, dirname, join, resolve } from 'node:path';
import type { AnyStore } from '../engine/types.js';
import type { EvidenceReopen, EvidenceStore } from './evidence-store.js';
import { FolderEvidenceStore } from './folder-store.js';
import { NoEvidenceStore } from './no-store.js';
import { parseS3Url } from './s3-url.js';

/** Where evidence goes, as `serve` and `import` take it. */
export interface EvidenceOptions {
  /** s3://bucket/prefix, or a folder. */
  evidence?: string;
  evidenceDir?: string;
  evidenceEndpoint?: string;
}

/** The folder beside a SQLite file: `flakeboard.db` keeps its evidence in `flakeboard.db-evidence/`. */
export function defaultEvidenceDir(databaseFile: string): string {
  return join(dirname(resolve(databaseFile)), `${basename(databaseFile)}-evidence`);
}

/** A problem with the options, said for the user; null when they are fine. */
export function evidenceOptionsProblem(options: EvidenceOptions): string | null {
  if (options.evidence !== undefined && options.evidenceDir !== undefined) return 'give --evidence or --evidence-dir, not both';
  if (options.evidence?.startsWith('s3:') && !parseS3Url(options.evidence)) return `--evidence ${JSON.stringify(options.evidence)} is not s3://bucket/prefix (a bucket name of 3 to 63 lowercase letters, digits, dots and dashes)`;
  if (options.evidenceEndpoint !== undefined) {
    if (!options.evidence?.startsWith('s3:')) return '--evidence-endpoint is for an S3-compatible store: give --evidence s3://bucket/prefix too';
    let url: URL;
    try {
      url = new URL(options.evidenceEndpoint);
    } catch {
      return `--evidence-endpoint ${JSON.stringify(options.evidenceEndpoint)} is not a URL`;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return '--evidence-endpoint must be an http or https URL';
    if (url.username || url.password) return '--evidence-endpoint must not hold credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY';
  }
  return null;
}

/** The store `reopen` describes, opened in this thread. */
export async function reopenEvidenceStore(reopen: EvidenceReopen): Promise<EvidenceStore> {
  if (reopen.kind === 'folder') return new FolderEvidenceStore(reopen.dir);
  return new (await import('./s3-store.js')).S3EvidenceStore(reopen.target);
}

/**
 * The evidence store the options name; without any, a folder beside a SQLite file, and none
 * for PostgreSQL (several servers need one shared place: a bucket, or a shared folder). Opening
 * an S3 store does not reach the bucket; its first use does.
 */
export async function openEvidenceStore(options: EvidenceOptions, store: AnyStore): Promise<EvidenceStore> {
  const problem = evidenceOptionsProblem(options);
  if (problem) throw new Error(problem);
  const s3 = options.evidence ? parseS3Url(options.evidence) : null;
  // Loaded only for a bucket: the AWS SDK is large, and most imports keep evidence in a folder.
  if (s3) return new (await import('./s3-store.js')).S3EvidenceStore({ ...s3, ...(options.evidenceEndpoint ? { endpoint: options.evidenceEndpoint } : {}) });
  const dir = options.evidenceDir ?? options.evidence;
  if (dir !== undefined) return new FolderEvidenceStore(resolve(dir));
  if (store.dialect === 'sqlite') return new FolderEvidenceStore(defaultEvidenceDir(store.path));
  return new NoEvidenceStore();
}
