import { generateHistory } from './history.js';
import { ingestValue, type IngestResult } from '../ingest.js';
import type { AnyStore } from '../store/engine/types.js';

export interface DemoSummary {
  runs: number;
  pending: number;
  duplicates: number;
  results: number;
  passed: number;
  failed: number;
  flaky: number;
  skipped: number;
  from: number;
  to: number;
}

/**
 * Fills a database with a generated month of CI history ending now, so a new user sees a
 * living product: flaky, broken, slow, declining and improving tests on four browsers. The
 * last few uploads stay pending, one of them a duplicate, so the review workflow has work.
 */
/** What the review list names as the demo runs' uploader: generated, not anyone's. */
const DEMO_UPLOADER = 'the generated demo history';

export async function seedDemo(store: AnyStore, options: { now?: number; runs?: number; tests?: number; days?: number } = {}): Promise<DemoSummary> {
  const runs = options.runs ?? 60;
  const pendingFrom = runs - 3;
  const outcomes: IngestResult[] = [];
  let from = Number.POSITIVE_INFINITY;
  let to = 0;
  let last: { report: unknown; fileName: string } | null = null;
  for (const run of generateHistory({ seed: 42, runs, days: options.days ?? 30, tests: options.tests ?? 60, endDate: options.now ?? Date.now(), outageRuns: 1 })) {
    from = Math.min(from, run.startedAt);
    to = Math.max(to, run.startedAt);
    outcomes.push(
      await ingestValue(store, run.report, {
        fileName: run.fileName,
        fileSize: null,
        gitBranch: run.branch,
        gitCommit: run.commit,
        approve: run.runIndex < pendingFrom,
        uploadedVia: DEMO_UPLOADER,
      }),
    );
    last = { report: run.report, fileName: run.fileName };
  }
  // A CI job that retried its upload step: the same report twice.
  if (last) outcomes.push(await ingestValue(store, last.report, { fileName: last.fileName, fileSize: null, uploadedVia: DEMO_UPLOADER }));
  const stored = outcomes.filter((o) => !o.duplicate);
  const sum = (key: 'tests' | 'passed' | 'failed' | 'flaky' | 'skipped') => stored.reduce((n, o) => n + o[key], 0);
  return {
    runs: outcomes.length,
    pending: outcomes.length - pendingFrom,
    duplicates: outcomes.length - stored.length,
    results: sum('tests'),
    passed: sum('passed'),
    failed: sum('failed'),
    flaky: sum('flaky'),
    skipped: sum('skipped'),
    from,
    to,
  };
}
