import { isSha256 } from '../api/attachments.js';
import { detectBrowsers, normaliseBrowserName, projectBrowser, projectNameOf } from '../browsers.js';
import { stripAnsi } from '../ansi.js';
import { attemptTestStatus, computeOutcome, firstAttemptStatus, isFailure, passedOnRetry } from '../status.js';
import { attemptError, normaliseError } from './errors.js';
import { gitFromMetadata } from './metadata.js';
import type { NormalisedAttempt, NormalisedRun, NormalisedStep, NormalisedTest, RunCounts } from './normalised.js';
import type { PwAttachment, PwConfig, PwError, PwReport, PwResult, PwSpec, PwStats, PwStdioChunk, PwStep, PwSuite, PwTest } from './playwright-types.js';

/**
 * Turns a checked report of any Playwright version into one run. Specs may be merged across
 * projects or duplicated per project (playwright-json-format.md §3), so tests are keyed by
 * their place and project name, never by spec or project ids.
 */
export function normaliseReport(report: PwReport): NormalisedRun {
  const normaliser = new RunNormaliser(report.config);
  const tests: NormalisedTest[] = [];
  for (const fileSuite of report.suites) {
    for (const test of normaliser.suiteTests(fileSuite)) tests.push(test);
  }
  return { ...normaliser.finish(report.errors, report.stats), tests };
}

/** Everything of a run but its tests: what is known once every suite has been read. */
export type RunSummary = Omit<NormalisedRun, 'tests'>;

/**
 * The same, one top-level suite at a time, for reports read in parts (read-report.ts): the
 * run's figures are kept as running totals, so the tests need not be held.
 */
export class RunNormaliser {
  private readonly browserOfProject = new Map<string, string>();
  /**
   * How often each test has been seen, for repeatIndex: by its place (file, position, describe
   * path and title, as one string) and then by project name, so a spec's tests look their place
   * up once. The key is in effect place + '\u0000' + project name cut at its last '\u0000' (a
   * project name may hold one), so the counters are those of that one string.
   */
  private readonly repeats = new Map<string, Map<string, number>>();
  private readonly projectNames = new Set<string>();
  private readonly counts: RunCounts = { tests: 0, passed: 0, failed: 0, skipped: 0, flaky: 0 };
  private earliestStart: number | null = null;
  private latestEnd = -Infinity;

  constructor(private readonly config: PwConfig) {
    for (const project of config.projects ?? []) this.browserOfProject.set(project.name, projectBrowser(project));
  }

  /**
   * The tests of one top-level suite (a file), in report order, one at a time: each can be
   * stored and dropped before the next is made (a file of thousands of tests is never held
   * normalised whole, so less of it survives each young-generation collection).
   */
  suiteTests(fileSuite: PwSuite): Generator<NormalisedTest, void, undefined>;
  /**
   * The same walk, normalising only the tests `wanted` picks (null in the place of the others):
   * a pass that needs a few tests (the evidence collector's) skips the cost of the rest.
   */
  suiteTests(fileSuite: PwSuite, wanted: (test: PwTest) => boolean): Generator<NormalisedTest | null, void, undefined>;
  *suiteTests(fileSuite: PwSuite, wanted?: (test: PwTest) => boolean): Generator<NormalisedTest | null, void, undefined> {
    // Depth-first, suites before their children, with a stack instead of recursion: depth is
    // bounded by validation (REPORT_LIMITS.suiteDepth), but nested generators would pass each
    // test up through every level. Top-level suites are files: their title is the path, not a
    // describe block.
    const stack: Array<{ suite: PwSuite; describePath: string[] }> = [{ suite: fileSuite, describePath: [] }];
    while (stack.length > 0) {
      const { suite, describePath } = stack.pop()!;
      const describeKey = describePath.join('\u0000');
      for (const spec of suite.specs ?? []) {
        const place = `${spec.file}\u0000${spec.line}\u0000${spec.column}\u0000${describeKey}\u0000${spec.title}`;
        let counts: Map<string, number> | undefined;
        // One title path for the spec's tests (one per project): read-only, and the writer
        // knows a test it has just stored by it (write-results.ts).
        const titlePath = [...describePath, spec.title];
        for (const test of spec.tests) {
          let project = `${test.projectName}`;
          const nul = project.lastIndexOf('\u0000');
          let byProject: Map<string, number>;
          if (nul === -1) byProject = counts ??= this.countsAt(place);
          else {
            byProject = this.countsAt(`${place}\u0000${project.slice(0, nul)}`);
            project = project.slice(nul + 1);
          }
          const repeatIndex = byProject.get(project) ?? 0;
          byProject.set(project, repeatIndex + 1);
          if (wanted && !wanted(test)) {
            yield null;
            continue;
          }
          const browser = this.browserOfProject.get(test.projectName) ?? normaliseBrowserName(projectNameOf(test.projectName));
          const normalised = normaliseTest(spec, test, titlePath, browser, repeatIndex);
          this.count(normalised);
          yield normalised;
        }
      }
      const children = suite.suites ?? [];
      for (let i = children.length - 1; i >= 0; i--) stack.push({ suite: children[i]!, describePath: [...describePath, children[i]!.title] });
    }
  }

  private countsAt(place: string): Map<string, number> {
    let counts = this.repeats.get(place);
    if (counts === undefined) {
      counts = new Map();
      this.repeats.set(place, counts);
    }
    return counts;
  }

  finish(reportErrors: PwError[] | undefined, stats: PwStats | undefined): RunSummary {
    const errors = (reportErrors ?? []).map((e) => normaliseError(e));
    const metadata = (this.config.metadata ?? {}) as Record<string, unknown>;
    const startedAt = parseTime(stats?.startTime) ?? this.earliestStart;
    return {
      playwrightVersion: typeof this.config.version === 'string' ? this.config.version : null,
      startedAt,
      durationMs: this.runDuration(stats, startedAt),
      detected: detectBrowsers({ config: this.config }, this.projectNames),
      shard: this.config.shard ?? null,
      git: gitFromMetadata(metadata),
      metadata,
      errors,
      loadFailed: this.counts.tests === 0 && errors.length > 0,
      counts: { ...this.counts },
    };
  }

  private count(t: NormalisedTest): void {
    this.projectNames.add(t.projectName);
    addToCounts(this.counts, t);
    if (t.startedAt !== null && (this.earliestStart === null || t.startedAt < this.earliestStart)) this.earliestStart = t.startedAt;
    for (const a of t.attempts) {
      if (a.startedAt !== null) this.latestEnd = Math.max(this.latestEnd, a.startedAt + a.durationMs);
    }
  }

  private runDuration(stats: PwStats | undefined, startedAt: number | null): number {
    if (typeof stats?.duration === 'number') return stats.duration;
    const totalTime = this.config.metadata?.totalTime;
    if (typeof totalTime === 'number') return totalTime;
    // Before 1.39 there are no stats: the span from the first start to the last end.
    return startedAt !== null ? Math.max(startedAt, this.latestEnd) - startedAt : 0;
  }
}

function normaliseTest(spec: PwSpec, test: PwTest, titlePath: string[], browser: string, repeatIndex: number): NormalisedTest {
  const expectedStatus = test.expectedStatus ?? 'passed';
  const attempts = test.results.map(normaliseAttempt);
  const last = test.results[test.results.length - 1];
  let durationMs = 0;
  for (const a of attempts) durationMs += a.durationMs;
  return {
    file: spec.file,
    titlePath,
    title: spec.title,
    line: spec.line ?? 0,
    column: spec.column ?? 0,
    projectName: projectNameOf(test.projectName),
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
    attachments: (result.attachments ?? []).map(normaliseAttachment),
  };
}

// Fields added in this order (the stored JSON's key order), without spreading a new object per field.
function normaliseAttachment(a: PwAttachment): NormalisedAttempt['attachments'][number] {
  const out: NormalisedAttempt['attachments'][number] = { name: a.name, contentType: a.contentType };
  if (a.path !== undefined) out.path = a.path;
  // Bodies stay out of the store: a base64 trace can be megabytes. Keep its size.
  if (a.body !== undefined) out.size = Math.floor((a.body.length * 3) / 4);
  if (a.sha256 !== undefined && isSha256(a.sha256)) out.sha256 = a.sha256;
  return out;
}

function normaliseStep(step: PwStep): NormalisedStep {
  const out: NormalisedStep = {
    title: step.title,
    category: 'test.step',
    duration: step.duration ?? 0,
    error: step.error ? (step.error.message ?? step.error.value ?? null) : null,
  };
  if (step.steps?.length) out.steps = step.steps.map(normaliseStep);
  return out;
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

function addToCounts(counts: RunCounts, t: Pick<NormalisedTest, 'status' | 'passedOnRetry'>): void {
  counts.tests++;
  if (t.status === 'passed') counts.passed++;
  else if (isFailure(t.status)) counts.failed++;
  else counts.skipped++;
  if (t.passedOnRetry) counts.flaky++;
}

function parseTime(value: string | undefined): number | null {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : time;
}
