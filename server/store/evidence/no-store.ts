import { EvidenceUnavailableError, type EvidenceBlob, type EvidenceStats, type EvidenceStore, type ListedBlob } from './evidence-store.js';

/** Where no evidence store was given (PostgreSQL without --evidence): holds nothing, takes nothing. */
export class NoEvidenceStore implements EvidenceStore {
  readonly location = 'none';
  async has(): Promise<boolean> {
    return false;
  }
  async size(): Promise<number | null> {
    return null;
  }
  async put(): Promise<void> {
    throw new EvidenceUnavailableError('this server keeps no evidence: start it with --evidence-dir or --evidence s3://bucket/prefix');
  }
  async get(): Promise<EvidenceBlob | null> {
    return null;
  }
  async delete(): Promise<void> {}
  async *list(): AsyncIterable<ListedBlob> {}
  async stats(): Promise<EvidenceStats> {
    return { count: 0, bytes: 0 };
  }
  async close(): Promise<void> {}
}
