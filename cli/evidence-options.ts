import { Option, type Command } from 'commander';
import { ATTACHMENTS_MODES, DEFAULT_ATTACHMENT_MAX_BYTES, type AttachmentsMode } from '../server/evidence/collect-import.js';
import type { EvidenceOptions } from '../server/store/evidence/open-evidence.js';

const UNITS: Record<string, number> = { '': 1, b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3, tb: 1024 ** 4 };

/** A size such as 50MB, 20GB or 1048576 (bytes), in bytes; units are powers of 1024. */
export function parseSize(value: string, flag: string): number {
  const match = /^(\d{1,9}(?:\.\d{1,3})?)\s*([kmgt]?b?)$/i.exec(value.trim());
  const bytes = match ? Math.round(Number(match[1]) * UNITS[match[2]!.toLowerCase()]!) : NaN;
  if (!(bytes >= 1)) throw new Error(`${flag} must be a size such as 50MB, 20GB or a number of bytes, not ${JSON.stringify(value)}`);
  return bytes;
}

/** --evidence, --evidence-dir and --evidence-endpoint: where blobs are kept (serve, import, prune, doctor). */
export function addEvidenceStoreOptions(command: Command): Command {
  return command
    .addOption(new Option('--evidence <place>', 'where screenshots, videos and traces are kept: s3://bucket/prefix or a folder (default: a folder beside a SQLite file)').env('FLAKEBOARD_EVIDENCE'))
    .option('--evidence-dir <path>', 'keep evidence in this folder')
    .addOption(new Option('--evidence-endpoint <url>', 'an S3-compatible server (MinIO, R2, …); credentials from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY').env('FLAKEBOARD_EVIDENCE_ENDPOINT'));
}

export function evidenceOptionsOf(options: { evidence?: string; evidenceDir?: string; evidenceEndpoint?: string }): EvidenceOptions {
  return {
    ...(options.evidence !== undefined ? { evidence: options.evidence } : {}),
    ...(options.evidenceDir !== undefined ? { evidenceDir: options.evidenceDir } : {}),
    ...(options.evidenceEndpoint !== undefined ? { evidenceEndpoint: options.evidenceEndpoint } : {}),
  };
}

/** --attachments and --attachment-max-size: which attachments an import or upload keeps. */
export function addAttachmentOptions(command: Command): Command {
  return command
    .addOption(new Option('--attachments <which>', 'keep the attachments of failed, timed-out and flaky tests, of all tests, or none').choices(ATTACHMENTS_MODES as string[]).default('failures'))
    .option('--attachment-max-size <size>', 'skip attachments larger than this (e.g. 50MB)', `${DEFAULT_ATTACHMENT_MAX_BYTES / 1024 / 1024}MB`);
}

export function attachmentSettings(options: { attachments?: string; attachmentMaxSize?: string }): { mode: AttachmentsMode; maxBytes: number } {
  return { mode: (options.attachments ?? 'failures') as AttachmentsMode, maxBytes: parseSize(options.attachmentMaxSize ?? '50MB', '--attachment-max-size') };
}
