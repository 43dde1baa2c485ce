import type { Readable } from 'node:stream';
import { partnerWords, type AttemptComparisonResponse, type ComparedAttempt, type ComparedFrame } from '../../core/api/attempt-comparison.js';
import { compareAttempts, type AttemptComparison } from '../../core/trace/compare.js';
import { partingFrame } from '../../core/trace/frames.js';
import { type TraceAction, type TraceFrame, type TraceSummary } from '../../core/trace/summary.js';
import { HttpError, notFound } from '../errors.js';
import type { AnyStore } from '../store/engine/types.js';
import type { EvidenceStore } from '../store/evidence/evidence-store.js';
import type { TraceRead } from './compare-job.js';
import { compareWorker } from './compare-runner.js';
import { attemptPair, type AttemptForComparison } from '../store/read/attempt-partner.js';

/**
 * A trace read for a comparison is read whole and expanded in the comparison's worker: past this
 * size the comparison falls back to the report's steps (the viewer still opens the trace).
 */
export const MAX_COMPARED_TRACE_BYTES = 32 * 1024 * 1024;
/** Expanded text of one compared trace: a tighter cap than a summary's own, bounding the worker's memory. */
const COMPARE_CAPS = { maxExpandedBytes: 48 * 1024 * 1024, maxEntries: 20_000 };
/** Said when the comparison is of the report alone. */
export const TRACES_WOULD_TELL_MORE = 'Compared from the report’s steps and errors: traces of both attempts would tell more (requests, console, frames)';
/** Said when both traces were read but neither has a frame to show where they parted. */
export const NO_FRAMES = 'The traces were recorded without screenshots: no frames to show where the attempts parted';
/** Steps of a report read per attempt when there is no trace. */
const MAX_STEPS = 200;

/** The failing attempt of a result beside its passing partner, from their traces when both kept one. */
export async function attemptComparison(store: AnyStore, evidence: EvidenceStore, resultId: number, retry: number | null, caller: string): Promise<AttemptComparisonResponse> {
  const pair = await attemptPair(store, resultId, retry);
  if (pair.found === 'no-result') throw notFound('Result');
  if (pair.found === 'no-failed-attempt') {
    throw new HttpError(404, retry === null ? `Result ${resultId} has no failed attempt to compare` : `Result ${resultId} has no failed attempt ${retry} (retries count from 0)`);
  }
  const side = (a: AttemptForComparison, traceRead: boolean): ComparedAttempt => ({
    resultId: a.resultId,
    runId: a.runId,
    retry: a.retry,
    status: a.status,
    durationMs: a.durationMs,
    traceSha256: traceRead ? a.traceSha256 : null,
    gitCommit: a.gitCommit,
    startedAt: new Date(a.startedAt).toISOString(),
  });
  if (!pair.passing) {
    return { failing: side(pair.failing, false), passing: null, partner: null, partnerText: null, tracesMissing: pair.failing.traceSha256 === null, note: null, comparison: null, frames: null, framesNote: null };
  }
  const [failingTrace, passingTrace] = await readTraces(evidence, pair.failing, pair.passing, caller);
  const tracesMissing = !failingTrace.summary || !passingTrace.summary;
  const [a, b] = tracesMissing ? [fromReport(pair.failing), fromReport(pair.passing)] : [failingTrace.summary!, passingTrace.summary!];
  const comparison = compareAttempts(a, b);
  const passing = side(pair.passing, !tracesMissing);
  const frames = tracesMissing ? null : partingFrames(comparison, pair.failing, failingTrace.frames, passingTrace.frames);
  return {
    failing: side(pair.failing, !tracesMissing),
    passing,
    partner: pair.partner,
    partnerText: partnerWords(pair.partner!, passing),
    tracesMissing,
    note: failingTrace.note ?? passingTrace.note ?? (tracesMissing ? TRACES_WOULD_TELL_MORE : null),
    comparison,
    frames,
    framesNote: comparison.partedAt && !tracesMissing && !frames?.failing && !frames?.passing ? NO_FRAMES : null,
  };
}

/** Each side's frame where they parted, as a URL of the frame route (comparison-frame.ts). */
function partingFrames(comparison: AttemptComparison, failing: AttemptForComparison, failingFrames: TraceFrame[], passingFrames: TraceFrame[]): AttemptComparisonResponse['frames'] {
  if (!comparison.partedAt) return null;
  const ref = (which: 'failing' | 'passing', frames: TraceFrame[]): ComparedFrame | null => {
    const found = partingFrame(comparison, which, frames);
    if (!found) return null;
    const url = `/api/evidence/compare/frame?result=${failing.resultId}&retry=${failing.retry}&side=${which}&name=${encodeURIComponent(found.frame.name)}`;
    return { url, action: found.action.title, atMs: Math.max(0, Math.round(found.frame.atMs)) };
  };
  return { failing: ref('failing', failingFrames), passing: ref('passing', passingFrames) };
}

type Read = { summary: TraceSummary | null; frames: TraceFrame[]; note: string | null };

/**
 * Both traces' bytes, read here (waiting on the evidence store), then expanded and parsed in the
 * comparison's worker (compare-runner.ts): that is the part whose cost grows with the trace.
 */
async function readTraces(evidence: EvidenceStore, failing: AttemptForComparison, passing: AttemptForComparison, caller: string): Promise<[Read, Read]> {
  const [f, p] = await Promise.all([bytesOf(evidence, failing), bytesOf(evidence, passing)]);
  if (!(f.bytes && p.bytes)) return [{ summary: null, frames: [], note: f.note }, { summary: null, frames: [], note: p.note }];
  const reads = await compareWorker.read(caller, [f.bytes, p.bytes], COMPARE_CAPS);
  const named = (read: TraceRead, attempt: AttemptForComparison): Read =>
    'summary' in read ? { summary: read.summary, frames: read.frames, note: null } : { summary: null, frames: [], note: `The trace of ${whichOf(attempt)} was not read: ${read.refused}` };
  return [named(reads[0], failing), named(reads[1], passing)];
}

const whichOf = (attempt: AttemptForComparison) => (attempt.status === 'passed' ? 'the passing attempt' : 'the failing attempt');

export async function bytesOf(evidence: EvidenceStore, attempt: AttemptForComparison): Promise<{ bytes: Uint8Array | null; note: string | null }> {
  const which = whichOf(attempt);
  if (!attempt.traceSha256) return { bytes: null, note: null };
  if ((attempt.traceSize ?? 0) > MAX_COMPARED_TRACE_BYTES) return { bytes: null, note: `The trace of ${which} is larger than ${MAX_COMPARED_TRACE_BYTES / (1024 * 1024)} MB: open it in the trace viewer` };
  const blob = await evidence.get(attempt.traceSha256);
  if (!blob) return { bytes: null, note: `The trace of ${which} is no longer in the evidence store` };
  if (blob.size > MAX_COMPARED_TRACE_BYTES) {
    (blob.stream as Readable).destroy();
    return { bytes: null, note: `The trace of ${which} is larger than ${MAX_COMPARED_TRACE_BYTES / (1024 * 1024)} MB: open it in the trace viewer` };
  }
  const chunks: Buffer[] = [];
  for await (const chunk of blob.stream as Readable) chunks.push(chunk as Buffer);
  // A fresh buffer of its own, so it can be transferred to the worker rather than copied.
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return { bytes, note: null };
}

interface ReportStep {
  title?: unknown;
  duration?: unknown;
  error?: unknown;
  steps?: unknown;
}

/** What the report itself says of an attempt: its steps (depth first) with their durations and errors. */
export function fromReport(attempt: AttemptForComparison): TraceSummary {
  const actions: TraceAction[] = [];
  const walk = (steps: unknown, depth: number) => {
    if (!Array.isArray(steps) || depth > 20) return;
    for (const step of steps as ReportStep[]) {
      if (actions.length >= MAX_STEPS) return;
      if (!step || typeof step !== 'object' || typeof step.title !== 'string') continue;
      const error = typeof step.error === 'string' ? step.error : step.error && typeof step.error === 'object' && typeof (step.error as { message?: unknown }).message === 'string' ? (step.error as { message: string }).message : null;
      actions.push({ title: step.title, locator: null, durationMs: typeof step.duration === 'number' ? Math.round(step.duration) : null, startMs: null, error });
      walk(step.steps, depth + 1);
    }
  };
  try {
    walk(attempt.stepsJson ? JSON.parse(attempt.stepsJson) : [], 0);
  } catch {
    // Steps the store could not parse back say nothing: the comparison is of what was read.
  }
  const failing = [...actions].reverse().find((a) => a.error !== null) ?? null;
  return {
    playwrightVersion: null,
    formatVersion: null,
    failingAction: failing,
    actions,
    consoleErrors: [],
    pageErrors: [],
    failedRequests: [],
    requests: [],
    omitted: 0,
  };
}
