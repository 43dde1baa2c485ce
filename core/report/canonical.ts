import type { NormalisedRun, NormalisedTest } from './normalised.js';
import type { RunSummary } from './normalise.js';

/**
 * The content that makes two reports the same run, written piece by piece to `emit` (a hash's
 * update): what ran, where, when, and how each attempt ended. Formatting, encoding, key order
 * and config noise do not change it, so a file imported by the CLI and the same file uploaded
 * by `flakeboard upload` (re-serialised by the client) are recognised as one. Cheaper than
 * serialising the whole report again, which cost as much as parsing it.
 */
export function emitCanonicalContent(run: NormalisedRun, emit: (text: string) => void): void {
  emit(canonicalHeader(run));
  for (const t of run.tests) emit(canonicalTest(t));
}

/** The run's part, emitted first; it counts the tests, so a reader in parts emits it last-known. */
export function canonicalHeader(run: RunSummary): string {
  return JSON.stringify([run.playwrightVersion, run.startedAt, run.durationMs, run.shard, run.errors.map((e) => [e.message, e.location]), run.counts.tests]);
}

export function canonicalTest(t: NormalisedTest): string {
  return JSON.stringify([
    t.file,
    t.titlePath,
    t.line,
    t.column,
    t.projectName,
    t.repeatIndex,
    t.expectedStatus,
    t.outcome,
    t.tags,
    t.annotations,
    t.attempts.map((a) => [a.status, a.durationMs, a.startedAt, a.error?.message ?? null, a.otherErrors, a.stdout, a.stderr, a.attachments.length]),
  ]);
}
