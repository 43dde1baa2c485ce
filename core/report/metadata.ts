import type { GitInfo } from './normalised.js';

/**
 * Git details Playwright's git-commit-info (≤1.50, flat "revision.*" keys) or captureGitInfo
 * (1.51+, gitCommit{} and ci{} objects) wrote into config.metadata.
 */
export function gitFromMetadata(metadata: Record<string, unknown>): GitInfo {
  const gitCommit = asRecord(metadata.gitCommit);
  const ci = asRecord(metadata.ci);
  const commit = str(gitCommit?.hash) ?? str(ci?.commitHash) ?? str(metadata['revision.id']);
  const branch = str(gitCommit?.branch) ?? str(metadata['revision.branch']) ?? str(metadata.branch);
  return { branch, commit };
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}
