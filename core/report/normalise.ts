import { detectBrowsers, normaliseBrowserName, projectBrowser } from '../browsers.js';
import { stripAnsi } from '../ansi.js';
import { attemptTestStatus, computeOutcome, firstAttemptStatus, isFailure, passedOnRetry } from '../status.js';
import { attemptError, normaliseError } from './errors.js';
import { gitFromMetadata } from './metadata.js';
import type { NormalisedAttempt, NormalisedRun, NormalisedStep, NormalisedTest, RunCounts } from './normalised.js';
import type { PwReport, PwResult, PwSpec, PwStdioChunk, PwStep, PwSuite, PwTest } from './playwright-types.js';

/**
 * Turns a checked report of any Playwright version into one run. Specs may be merged across
 * projects or duplicated per project (playwright-json-format.md §3), so tests are keyed by
 * their place and project name, never by spec or project ids.
 */
export function normaliseReport(report: PwReport): NormalisedRun {
  const browserOfProject = new Map<string, string>();
  for (const project of report.config.projects ?? []) browserOfProject.set(project.name, projectBrowser(project));

  const tests: NormalisedTest[] = [];
  const repeats = new Map<string, number>();
  const walk = (suite: PwSuite, describePath: string[]): void => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        const key = `${spec.file}\u0000${spec.line}\u0000${spec.column}\u0000${describePath.join('\u0000')}\u0000${spec.title}\u0000${test.projectName}`;
        const repeatIndex = repeats.get(key) ?? 0;
        repeats.set(key, repeatIndex + 1);
        const browser = browserOfProject.get(test.projectName) ?? normaliseBrowserName(test.projectName);
        tests.push(normaliseTest(spec, test, describePath, browser, repeatIndex));
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...describePath, child.title]);
  };
  // Top-level suites are files: their title is the path, not a describe block.
  for (const fileSuite of report.suites) walk(fileSuite, []);

  const errors = (report.errors ?? []).map((e) => normaliseError(e));
  const metadata = (report.config.metadata ?? {}) as Record<string, unknown>;
  const startedAt = parseTime(report.stats?.startTime) ?? earliestStart(tests);
  return {
    playwrightVersion: typeof report.config.version === 'string' ? report.config.version : null,
    startedAt,
    durationMs: runDuration(report, tests, startedAt),
    detected: detectBrowsers(report, new Set(tests.map((t) => t.projectName))),
    shard: report.config.shard ?? null,
    git: gitFromMetadata(metadata),
    metadata,
    errors,
    loadFailed: tests.length === 0 && errors.length > 0,
    tests,
    counts: countTests(tests),
  };
}

function normaliseTest(spec: PwSpec, test: PwTest, describePath: string[], browser: string, repeatIndex: number): NormalisedTest {
  const expectedStatus = test.expectedStatus ?? 'passed';
  const attempts = test.results.map(normaliseAttempt);
  const last = test.results[test.results.length - 1];
  let durationMs = 0;
  for (const a of attempts) durationMs += a.durationMs;
  return {
    file: spec.file,
    titlePath: [...describePath, spec.title],
    title: spec.title,
    line: spec.line ?? 0,
    column: spec.column ?? 0,
    projectName: test.projectName ?? '',
    browser,
    repeatIndex,
    tags: spec.tags ?? [],
    annotations: test.annotations ?? [],
    expectedStatus,
    outcome: test.status ?? computeOutcome(test.results, expectedStatus),
    status: firstAttemptStatus(test),
    finalStatus: last ? attemptTestStatus(last.status, expectedStatus) : 'skipped',
    passedOnRetry: passedOnRetry(test.results, expectedStatus),
    retries: Math.max(0, test.results.length - 1),
    durationMs,
    startedAt: attempts[0]?.startedAt ?? null,
    error: attempts.find((a) => a.error)?.error ?? null,
    attempts,
  };
}

function normaliseAttempt(result: PwResult, index: number): NormalisedAttempt {
  return {
    retry: result.retry ?? index,
    status: result.status,
    durationMs: result.duration ?? 0,
    startedAt: parseTime(result.startTime),
    error: attemptError(result),
    otherErrors: (result.errors ?? []).slice(1).map((e) => stripAnsi(e.message ?? '')),
    steps: (result.steps ?? []).map(normaliseStep),
    stdout: joinChunks(result.stdout),
    stderr: joinChunks(result.stderr),
    attachments: (result.attachments ?? []).map((a) => ({
      name: a.name,
      contentType: a.contentType,
      ...(a.path !== undefined ? { path: a.path } : {}),
      // Bodies stay out of the store: a base64 trace can be megabytes. Keep its size.
      ...(a.body !== undefined ? { size: Math.floor((a.body.length * 3) / 4) } : {}),
    })),
  };
}

function normaliseStep(step: PwStep): NormalisedStep {
  return {
    title: step.title,
    category: 'test.step',
    duration: step.duration ?? 0,
    error: step.error ? (step.error.message ?? step.error.value ?? null) : null,
    ...(step.steps?.length ? { steps: step.steps.map(normaliseStep) } : {}),
  };
}

function joinChunks(chunks: PwStdioChunk[] | undefined): string {
  if (!chunks || chunks.length === 0) return '';
  let text = '';
  for (const chunk of chunks) {
    if (typeof chunk === 'string') text += chunk;
    else if (chunk.text !== undefined) text += chunk.text;
    else if (chunk.buffer !== undefined) text += decodeBase64(chunk.buffer);
  }
  return text;
}

function decodeBase64(base64: string): string {
  try {
    const binary = atob(base64);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return new TextDecoder('utf-8').decode(bytes);
  } catch {
    return `[${base64.length} bytes of binary output]`;
  }
}

export function countTests(tests: readonly Pick<NormalisedTest, 'status' | 'passedOnRetry'>[]): RunCounts {
  const counts: RunCounts = { tests: tests.length, passed: 0, failed: 0, skipped: 0, flaky: 0 };
  for (const t of tests) {
    if (t.status === 'passed') counts.passed++;
    else if (isFailure(t.status)) counts.failed++;
    else counts.skipped++;
    if (t.passedOnRetry) counts.flaky++;
  }
  return counts;
}

function parseTime(value: string | undefined): number | null {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : time;
}

function earliestStart(tests: readonly NormalisedTest[]): number | null {
  let earliest: number | null = null;
  for (const t of tests) {
    if (t.startedAt !== null && (earliest === null || t.startedAt < earliest)) earliest = t.startedAt;
  }
  return earliest;
}

function runDuration(report: PwReport, tests: readonly NormalisedTest[], startedAt: number | null): number {
  if (typeof report.stats?.duration === 'number') return report.stats.duration;
  const totalTime = report.config.metadata?.totalTime;
  if (typeof totalTime === 'number') return totalTime;
  // Before 1.39 there are no stats: the span from the first start to the last end.
  let end = startedAt ?? 0;
  for (const t of tests) {
    for (const a of t.attempts) {
      if (a.startedAt !== null) end = Math.max(end, a.startedAt + a.durationMs);
    }
  }
  return startedAt !== null ? end - startedAt : 0;
}
