import { relative, sep } from 'node:path';
import type { FullConfig, FullResult, Suite, TestCase, TestError, TestResult, TestStep } from '@playwright/test/reporter';
import { projectNameOf } from '../core/browsers.js';
import { coversTest } from '../core/gate/classify.js';
import type { QuarantineEntry } from '../core/gate/types.js';
import type { Destination } from './deliver.js';
import { lastLine, runBinary } from './run-binary.js';

const DAY_MS = 86_400_000;
/** The list is small; an answer larger than this is not a quarantine list. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

export type QuarantineList = { entries: QuarantineEntry[] } | { error: string };

/** One entry as `quarantine export` writes it and as GET /api/quarantine answers it, the fields read here. */
interface ListedEntry {
  id: number;
  title: string;
  file: string | null;
  project: string | null;
  reason: string;
  owner: string | null;
  through: string | null;
  expiresAt?: number | null;
  removedAt?: number | null;
  expired?: boolean;
}

/**
 * The entries in force where the run is stored: `flakeboard quarantine export` over the database
 * (a child process, as the storing is), or GET /api/quarantine on the server with the token, no
 * redirect followed. Bounded in time; a failure is an answer that says why, never a throw.
 */
export async function fetchQuarantine(destination: Destination, timeoutMs: number): Promise<QuarantineList> {
  try {
    const listed = destination.kind === 'db' ? await exportFromDb(destination.db, timeoutMs) : await getFromServer(destination.server, destination.token, timeoutMs);
    return { entries: listed.filter((q) => q.removedAt == null && q.expired !== true).map(toEntry) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function exportFromDb(db: string | null, timeoutMs: number): Promise<ListedEntry[]> {
  const args = ['quarantine', 'export', '--format', 'json'];
  if (db) args.push('--db', db);
  return runBinary(args, process.env, timeoutMs).then(({ code, stdout, stderr }) => {
    if (code !== 0) throw new Error(lastLine(stderr) ?? `flakeboard quarantine export exited with ${code}`);
    try {
      return listOf((JSON.parse(stdout) as { tests?: unknown }).tests);
    } catch (error) {
      throw new Error(`flakeboard quarantine export gave no list: ${(error as Error).message}`, { cause: error });
    }
  });
}

async function getFromServer(server: string, token: string | null, timeoutMs: number): Promise<ListedEntry[]> {
  if (!token) throw new Error('no token: set `token` or FLAKEBOARD_TOKEN (`flakeboard token create NAME` makes one)');
  let response: Response;
  try {
    response = await fetch(new URL('/api/quarantine', server), { headers: { authorization: `Bearer ${token}`, accept: 'application/json' }, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError') throw new Error(`gave up after ${seconds(timeoutMs)} s`, { cause: error });
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(cause?.code ?? cause?.message ?? (error as Error).message, { cause: error });
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    if (response.status >= 300 && response.status < 400) throw new Error(`the server answered a redirect (${response.status}), which is not followed`);
    // A token made with the default scope may send runs but not read the list.
    if (response.status === 403) throw new Error('the token may not read it (403): give the reporter a token with the read scope, `flakeboard token create NAME --scope upload,read`');
    throw new Error(`the server answered ${response.status}`);
  }
  const text = await response.text();
  if (text.length > MAX_ANSWER_BYTES) throw new Error('the server answered more than a quarantine list');
  return listOf((JSON.parse(text) as { entries?: unknown }).entries);
}

function listOf(value: unknown): ListedEntry[] {
  if (!Array.isArray(value)) throw new Error('not a list of entries');
  for (const q of value as ListedEntry[]) {
    if (typeof q !== 'object' || q === null || typeof q.title !== 'string' || typeof q.reason !== 'string') throw new Error('an entry without a title or reason');
  }
  return value as ListedEntry[];
}

/** The gate's entry: the moment it stops is the end of its `through` day when only that is given. */
function toEntry(q: ListedEntry): QuarantineEntry {
  const expiresAt = typeof q.expiresAt === 'number' ? q.expiresAt : q.through === null ? null : Date.parse(`${q.through}T00:00:00Z`) + DAY_MS;
  return { id: q.id, title: q.title, file: q.file ?? null, project: q.project ?? null, reason: q.reason, owner: q.owner ?? null, createdBy: null, createdAt: 0, expiresAt };
}

export interface Forgiven {
  test: TestCase;
  entry: QuarantineEntry;
}

/**
 * The failures a run may end as passed over: every test that failed (and did not pass on a
 * retry) is covered by an entry, matched by the gate's own rule over the title, file and project
 * as flakeboard stores them. Null when anything else went wrong: a run that was interrupted, timed
 * out or stopped at --max-failures, an error outside any test (global setup or teardown, a worker
 * that died), a failure outside a test's own body (a beforeAll or afterAll hook that serves the
 * whole file among them), or a failure nothing covers.
 */
export function forgivable(config: FullConfig, root: Suite, result: FullResult, errors: readonly TestError[], entries: readonly QuarantineEntry[], now: number): Forgiven[] | null {
  if (result.status !== 'failed' || errors.length > 0) return null;
  const failed = root.allTests().filter((test) => test.outcome() === 'unexpected');
  if (failed.length === 0) return null;
  // Stopped early, which Playwright also reports as an error outside any test: what it never ran could have failed.
  if (config.maxFailures > 0 && failed.length >= config.maxFailures) return null;
  const forgiven: Forgiven[] = [];
  for (const test of failed) {
    if (test.results.some((r) => r.status !== 'passed' && r.status !== 'skipped' && failedOutsideBody(r))) return null;
    const project = projectNameOf(test.parent.project()?.name);
    const file = relative(config.rootDir, test.location.file).split(sep).join('/');
    const entry = entries.find((q) => coversTest(q, { title: test.title, file, project }, now));
    if (!entry) return null;
    forgiven.push({ test, entry });
  }
  return forgiven;
}

/**
 * A failure outside the test's own body: in its hooks or fixtures, before or after it, or in the
 * worker's cleanup. A beforeAll or afterAll hook fails the tests of its whole file this way, and a
 * named hook's step carries only the name it was given, not its kind: so every hook's failure is
 * left unforgiven, a beforeEach's too, rather than guess which served the whole file.
 */
function failedOutsideBody(result: TestResult): boolean {
  if (result.status !== 'failed' && result.status !== 'timedOut') return true;
  return result.steps.some((step: TestStep) => step.category === 'hook' && step.error !== undefined);
}

const seconds = (ms: number) => Math.round(ms / 1000);
