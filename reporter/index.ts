import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestError } from '@playwright/test/reporter';
import { buildFromCiEnv } from '../core/ci-env.js';
import { gitFromMetadata } from '../core/report/metadata.js';
import { normaliseReport } from '../core/report/normalise.js';
import { detectGit } from '../cli/git.js';
import { deliver, type Destination } from './deliver.js';
import { fetchQuarantine, forgivable, type Forgiven, type QuarantineList } from './quarantine.js';
import { projectNameAt, runName } from './run-name.js';
import { serializeRun } from './serialize.js';
import { inertLines } from '../core/terminal-text.js';
import { quarantineLastDay } from '../core/gate/expiry.js';

/** `['flakeboard/reporter', { … }]` in playwright.config. Every field is optional. */
export interface FlakeboardReporterOptions {
  /** A database file to store the run in (default `.flakeboard/flakeboard.db`, or FLAKEBOARD_DB). */
  db?: string;
  /** A flakeboard server to send the run to (or FLAKEBOARD_SERVER); needs `token`. */
  server?: string;
  /** An API token from `flakeboard token create` (or FLAKEBOARD_TOKEN). */
  token?: string;
  project?: string;
  branch?: string;
  commit?: string;
  /** The CI build (default: the CI's variables, as `import`/`upload` read them); the shards of one build are one run. */
  buildId?: string;
  /** A link to that build (http or https). */
  buildUrl?: string;
  /** Also keep the JSON report here (the same file `--reporter=json` would write). */
  outputFile?: string;
  /** How long storing or sending may take before it is given up, in ms (default 30 s). */
  timeout?: number;
  /**
   * Keep a run stored in a database pending review, as an upload would be. By default it counts
   * at once: whoever runs the suite owns that database. A server applies its own review rules.
   */
  review?: boolean;
  /**
   * End a run as passed when its every failure is a test an active quarantine entry covers, read
   * from the database or server the run goes to (default true; false turns it off).
   */
  quarantine?: boolean;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * Stores or sends each run when it ends. A failure says so in one line and never fails or
 * holds up the test run: the delivery is bounded in time and runs in a child process.
 * Works for one machine, each shard of a sharded run (each shard is its own run), and
 * `npx playwright merge-reports --reporter flakeboard/reporter` over the shards' blobs.
 */
export default class FlakeboardReporter implements Reporter {
  private config: FullConfig | null = null;
  private root: Suite | null = null;
  private readonly errors: TestError[] = [];
  private quarantine: Promise<QuarantineList> | null = null;

  constructor(private readonly options: FlakeboardReporterOptions = {}) {}

  printsToStdio(): boolean {
    return false;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.config = config;
    this.root = suite;
    // Read while the tests run, so the end of the run waits for it as little as it can.
    if (this.options.quarantine !== false) this.quarantine = fetchQuarantine(destinationFrom(this.options, process.env), this.options.timeout ?? DEFAULT_TIMEOUT_MS);
  }

  onError(error: TestError): void {
    this.errors.push(error);
  }

  async onEnd(result: FullResult): Promise<{ status: 'passed' } | undefined> {
    if (!this.config || !this.root) return undefined;
    const destination = destinationFrom(this.options, process.env);
    const where = destination.kind === 'db' ? (destination.db ?? '.flakeboard/flakeboard.db') : destination.server;
    // Decided before the run is stored, which keeps its failures as they were.
    const forgiven = await this.forgiven(result, where);
    let name: string | null = null;
    let dir: string | null = null;
    try {
      const report = serializeRun(this.config, this.root, result, this.errors);
      name = await this.nameOf(report.config.metadata ?? {});
      if (destination.kind === 'server' && !destination.token) throw new Error('no token: set `token` or FLAKEBOARD_TOKEN (`flakeboard token create NAME` makes one)');
      // A private folder: the report holds test output and error text.
      dir = mkdtempSync(join(tmpdir(), 'flakeboard-reporter-'));
      const reportFile = join(dir, 'playwright-report.json');
      writeFileSync(reportFile, JSON.stringify(report), { mode: 0o600 });
      if (this.options.outputFile) keepCopy(reportFile, resolve(this.options.outputFile));
      const stored = await deliver({
        destination,
        reportFile,
        name,
        // The person running the suite owns a local database: their run counts unless they ask for review.
        approve: destination.kind === 'db' && this.options.review !== true,
        uploader: `reporter on ${hostname()}`,
        project: this.options.project,
        branch: this.options.branch,
        commit: this.options.commit,
        buildId: this.options.buildId,
        buildUrl: this.options.buildUrl,
        timeoutMs: this.options.timeout ?? DEFAULT_TIMEOUT_MS,
      });
      // Counted by the rules every screen uses; an upload's answer carries only the run's id.
      const { tests, failed, flaky } = normaliseReport(report).counts;
      const counts = `${tests} ${tests === 1 ? 'test' : 'tests'}, ${failed} failed, ${flaky} flaky`;
      const state = stored.duplicate ? 'a duplicate of an earlier run, pending review' : stored.status === 'approved' ? 'approved' : 'pending review';
      say(`${destination.kind === 'db' ? 'stored' : 'sent'} run ${stored.runId} "${name}" (${counts}; ${state}) ${destination.kind === 'db' ? 'in' : 'to'} ${where}`);
    } catch (error) {
      const what = name === null ? 'the run' : `the run "${name}"`;
      say(`could not ${destination.kind === 'db' ? 'store' : 'send'} ${what} ${destination.kind === 'db' ? 'in' : 'to'} ${where}: ${(error as Error).message} (the test run itself is not affected)`);
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
    return forgiven ? { status: 'passed' } : undefined;
  }

  /** The failed run's failures, when quarantine entries cover them all; each said in a line. */
  private async forgiven(result: FullResult, where: string): Promise<Forgiven[] | null> {
    if (!this.quarantine || result.status !== 'failed') return null;
    const list = await this.quarantine;
    if ('error' in list) {
      say(`could not read the quarantine list from ${where}: ${list.error}; no failure is forgiven`);
      return null;
    }
    const forgiven = forgivable(this.config!, this.root!, result, this.errors, list.entries, Date.now());
    for (const { test, entry } of forgiven ?? []) {
      const terms = [entry.owner ? `owner ${entry.owner}` : null, entry.expiresAt === null ? 'no end' : `through ${quarantineLastDay(entry.expiresAt)}`].filter(Boolean).join(', ');
      say(`forgiven, quarantined: "${test.title}" (${terms}: ${entry.reason})`);
    }
    return forgiven;
  }

  /** What the run is called: project, branch, CI build and shard, found as `import` finds them. */
  private async nameOf(metadata: Record<string, unknown>): Promise<string> {
    const config = this.config!;
    const { options } = this;
    const branch = options.branch ?? gitFromMetadata(metadata).branch ?? (await detectGit()).branch;
    const buildId = options.buildId ?? buildFromCiEnv(process.env).buildId;
    // rootDir is the tests' folder; the project is the config's folder, where its package.json lives.
    const projectDir = config.configFile ? dirname(config.configFile) : config.rootDir;
    return runName({ project: options.project ?? projectNameAt(projectDir), branch, buildId, shard: config.shard });
  }
}

export function destinationFrom(options: FlakeboardReporterOptions, env: NodeJS.ProcessEnv): Destination {
  // An explicit database wins; otherwise a configured server; otherwise the local default.
  if (options.db) return { kind: 'db', db: options.db };
  const server = options.server ?? env.FLAKEBOARD_SERVER;
  if (server) return { kind: 'server', server, token: options.token ?? env.FLAKEBOARD_TOKEN ?? null };
  return { kind: 'db', db: env.FLAKEBOARD_DB || null };
}

/** The copy the user asked for, made as Playwright's json reporter makes its file (the umask decides). */
function keepCopy(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  writeFileSync(to, readFileSync(from));
}

function say(line: string): void {
  process.stdout.write(`${inertLines(`flakeboard: ${line}`)}\n`);
}
