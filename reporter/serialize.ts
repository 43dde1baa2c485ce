import { relative, sep } from 'node:path';
import type { FullConfig, FullResult, Suite, TestCase, TestError, TestResult, TestStep } from '@playwright/test/reporter';
import type { PwError, PwLocation, PwReport, PwResult, PwSpec, PwStep, PwSuite, PwTest } from '../core/report/playwright-types.js';

/**
 * The run as Playwright's own json reporter writes it (packages/playwright/src/reporters/json.ts),
 * so `import` and `upload` read it with the parser every report goes through. Leaves out what
 * flakeboard never stores: attachment bodies (only names, types and paths are kept) and
 * private config fields.
 */
export function serializeRun(config: FullConfig, root: Suite, result: FullResult, errors: TestError[]): PwReport {
  const rootDir = config.rootDir;
  const rel = (location: { file: string; line: number; column: number } | undefined): PwLocation =>
    location ? { file: posix(relative(rootDir, location.file)), line: location.line, column: location.column } : { file: '', line: 0, column: 0 };

  const stats = { startTime: result.startTime.toISOString(), duration: result.duration, expected: 0, skipped: 0, unexpected: 0, flaky: 0 };
  for (const test of root.allTests()) stats[test.outcome()] += 1;

  return {
    config: {
      configFile: config.configFile,
      rootDir: posix(rootDir),
      version: config.version,
      shard: config.shard,
      workers: config.workers,
      metadata: config.metadata,
      projects: config.projects.map((project) => ({
        name: project.name,
        outputDir: posix(project.outputDir),
        repeatEach: project.repeatEach,
        retries: project.retries,
        metadata: project.metadata,
        testDir: posix(project.testDir),
        timeout: project.timeout,
      })),
    },
    suites: mergeFileSuites(root, rel),
    errors: errors.map(toPwError),
    stats,
  };
}

/** One suite per file, each project's tests merged into the same specs (as Playwright does). */
function mergeFileSuites(root: Suite, rel: (l: TestCase['location'] | undefined) => PwLocation): PwSuite[] {
  const byFile = new Map<string, PwSuite>();
  for (const projectSuite of root.suites) {
    const projectName = projectSuite.project()?.name ?? '';
    for (const fileSuite of projectSuite.suites) {
      const serialized = serializeSuite(fileSuite, projectName, rel);
      if (!serialized) continue;
      const existing = byFile.get(serialized.file ?? '');
      if (existing) mergeInto(existing, serialized);
      else byFile.set(serialized.file ?? '', { ...serialized, line: 0, column: 0 });
    }
  }
  return [...byFile.values()];
}

function serializeSuite(suite: Suite, projectName: string, rel: (l: TestCase['location'] | undefined) => PwLocation): PwSuite | null {
  if (suite.allTests().length === 0) return null;
  const suites = suite.suites.map((child) => serializeSuite(child, projectName, rel)).filter((s): s is PwSuite => s !== null);
  return {
    title: suite.title,
    ...rel(suite.location),
    specs: suite.tests.map((test) => serializeSpec(test, projectName, rel)),
    ...(suites.length > 0 ? { suites } : {}),
  };
}

const sameLocation = (a: PwSuite | PwSpec, b: PwSuite | PwSpec) => a.file === b.file && a.line === b.line && a.column === b.column;

function mergeInto(to: PwSuite, from: PwSuite): void {
  for (const child of from.suites ?? []) {
    const match = to.suites?.find((s) => s.title === child.title && sameLocation(s, child));
    if (match) mergeInto(match, child);
    else (to.suites ??= []).push(child);
  }
  for (const spec of from.specs ?? []) {
    const match = to.specs?.find((s) => s.title === spec.title && sameLocation(s, spec));
    if (match) match.tests.push(...spec.tests);
    else (to.specs ??= []).push(spec);
  }
}

function serializeSpec(test: TestCase, projectName: string, rel: (l: TestCase['location'] | undefined) => PwLocation): PwSpec {
  const entry: PwTest = {
    timeout: test.timeout,
    annotations: test.annotations.map((a) => ({ type: a.type, ...(a.description !== undefined ? { description: a.description } : {}) })),
    expectedStatus: test.expectedStatus,
    projectName,
    results: test.results.map(serializeResult),
    status: test.outcome(),
  };
  return { title: test.title, ok: test.ok(), tags: test.tags.map((tag) => tag.replace(/^@/, '')), tests: [entry], id: test.id, ...rel(test.location) };
}

function serializeResult(result: TestResult): PwResult {
  const steps = result.steps.filter((s) => s.category === 'test.step');
  return {
    workerIndex: result.workerIndex,
    parallelIndex: result.parallelIndex,
    status: result.status,
    duration: result.duration,
    ...(result.error ? { error: toPwError(result.error) } : {}),
    errors: result.errors.map((e) => ({ message: e.message ?? e.value ?? '', ...(e.location ? { location: e.location } : {}) })),
    stdout: result.stdout.map(stdio),
    stderr: result.stderr.map(stdio),
    retry: result.retry,
    ...(steps.length > 0 ? { steps: steps.map(serializeStep) } : {}),
    startTime: result.startTime.toISOString(),
    annotations: result.annotations.map((a) => ({ type: a.type, ...(a.description !== undefined ? { description: a.description } : {}) })),
    // A body (testInfo.attach with one) goes as Playwright's JSON reporter writes it, base64: import keeps it as evidence.
    attachments: result.attachments.map((a) => ({ name: a.name, contentType: a.contentType, ...(a.path ? { path: a.path } : {}), ...(a.body ? { body: a.body.toString('base64') } : {}) })),
  };
}

function serializeStep(step: TestStep): PwStep {
  const steps = step.steps.filter((s) => s.category === 'test.step');
  return {
    title: step.title,
    duration: step.duration,
    ...(step.error ? { error: toPwError(step.error) } : {}),
    ...(steps.length > 0 ? { steps: steps.map(serializeStep) } : {}),
  };
}

function toPwError(error: TestError): PwError {
  return {
    ...(error.message !== undefined ? { message: error.message } : {}),
    ...(error.stack !== undefined ? { stack: error.stack } : {}),
    ...(error.value !== undefined ? { value: error.value } : {}),
    ...(error.location ? { location: error.location } : {}),
    ...(error.snippet !== undefined ? { snippet: error.snippet } : {}),
    ...(error.cause ? { cause: toPwError(error.cause) } : {}),
  };
}

const stdio = (chunk: string | Buffer) => (typeof chunk === 'string' ? { text: chunk } : { buffer: chunk.toString('base64') });
const posix = (path: string) => path.split(sep).join('/');
