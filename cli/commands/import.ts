import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { hostname } from 'node:os';
import type { Command } from 'commander';
import { InvalidReportError } from '../../core/report/parse.js';
import { ingestFile, ingestFileCollecting, type IngestOptions, type IngestResult } from '../../server/ingest.js';
import { READER_THREAD_MIN_BYTES } from '../../server/ingest-thread.js';
import type { BlobRow } from '../../server/store/evidence/blob-rows.js';
import { enqueueAfterCommit } from '../../server/webhooks/enqueue.js';
import { databaseTrouble } from '../../server/store/engine/dialect.js';
import { openAnyStore } from '../../server/store/engine/open-any.js';
import { DEFAULT_BUSY_TIMEOUT_MS } from '../../server/store/engine/open.js';
import type { AnyStore } from '../../server/store/engine/types.js';
import { auditCli } from './admin-common.js';
import { detectBuild, detectGit, type GitFallback } from '../git.js';
import { describeFsError, expandInputs } from '../inputs.js';
import { dbOption, labelProblem, resolveDbTarget } from '../options.js';
import { createProgress } from '../progress.js';
import { findRepoOwners, ownersForReport, type RepoOwners } from '../owners.js';
import { addAttachmentOptions, addEvidenceStoreOptions, attachmentSettings, evidenceOptionsOf } from '../evidence-options.js';
import { EvidenceCollector, storeBlobs, type CollectSummary } from '../../server/evidence/collect-import.js';
import type { EvidenceStore } from '../../server/store/evidence/evidence-store.js';
import { evidenceOptionsProblem, openEvidenceStore } from '../../server/store/evidence/open-evidence.js';
import { inertLines, terminalJson } from '../../core/terminal-text.js';

interface ImportOptions {
  db: string;
  project?: string;
  branch?: string;
  commit?: string;
  buildId?: string;
  buildUrl?: string;
  approve?: boolean;
  name?: string;
  uploader?: string;
  json?: boolean;
  codeowners?: string;
  repoRoot?: string;
  attachments?: string;
  attachmentMaxSize?: string;
  evidence?: string;
  evidenceDir?: string;
  evidenceEndpoint?: string;
}

/** One line of `--json`: the fields a CI script relies on, plus what a script may want. */
export interface FileOutcome {
  file: string;
  runId: number | null;
  tests: number;
  passed: number;
  failed: number;
  flaky: number;
  skipped: number;
  duplicate: boolean;
  /** pending or approved; absent for a refused file. */
  status?: 'pending' | 'approved' | 'rejected';
  error?: string;
  loadError?: string;
}

export function registerImport(program: Command): void {
  const command = program
    .command('import')
    .description('store Playwright JSON reports in the database (a SQLite file, or PostgreSQL with --db postgres://…)')
    .argument('<paths...>', 'report files, folders (searched for .json) or globs')
    .addOption(dbOption())
    .option('--project <name>', 'project name (default: from the report)')
    .option('--branch <name>', 'git branch (default: CI variables, else git)')
    .option('--commit <sha>', 'git commit (default: CI variables, else git)')
    .option('--build-id <id>', 'CI build id: the shards of one build are one run (default: CI variables)')
    .option('--build-url <url>', 'link to the CI build (http or https; default: CI variables)')
    .option('--approve', 'store the runs as approved instead of pending review')
    .option('--name <text>', "what the run is called in the review list and recent uploads (default: the file's path)")
    .option('--uploader <text>', 'who stored it, as the review list shows it (default: "import on <this host>")')
    .option('--codeowners <file>', "CODEOWNERS file to attribute tests to owners with (default: the checkout's .github/CODEOWNERS, CODEOWNERS or docs/CODEOWNERS)")
    .option('--repo-root <dir>', "the repository's root, which CODEOWNERS patterns are relative to (default: git's root of the report's folder)")
    .option('--json', 'print one JSON array with an object per file');
  addAttachmentOptions(command);
  addEvidenceStoreOptions(command)
    .action(async (paths: string[], options: ImportOptions) => {
      process.exitCode = await runImport(paths, options);
    });
}

export async function runImport(paths: string[], options: ImportOptions): Promise<number> {
  const build = detectBuild(options);
  if ('error' in build) return refuseCommand(build.error);
  const problem = labelProblem('--name', options.name) ?? labelProblem('--uploader', options.uploader);
  if (problem !== null) return refuseCommand(problem);
  const uploadedVia = options.uploader?.trim() ?? `import on ${hostname()}`;
  let attachments: ReturnType<typeof attachmentSettings>;
  try {
    attachments = attachmentSettings(options);
  } catch (error) {
    return refuseCommand((error as Error).message);
  }
  const evidenceProblem = evidenceOptionsProblem(evidenceOptionsOf(options));
  if (evidenceProblem !== null) return refuseCommand(evidenceProblem);
  const inputs = await expandInputs(paths);
  const outcomes: FileOutcome[] = [];
  const print = options.json ? () => {} : (line: string) => process.stdout.write(`${inertLines(line)}\n`);
  const printError = options.json ? () => {} : (line: string) => process.stderr.write(`${inertLines(line)}\n`);
  for (const input of inputs) {
    if ('error' in input) {
      outcomes.push(refused(input.input, input.error));
      printError(`✗ ${input.error}`);
    }
  }
  const files = inputs.flatMap((i) => ('file' in i ? [i.file] : []));
  // Read before anything is stored: a CODEOWNERS file named but unreadable stores nothing.
  const repoOwners = new Map<string, Promise<RepoOwners | null>>();
  const ownersOfDir = (dir: string) => {
    let found = repoOwners.get(dir);
    if (!found) repoOwners.set(dir, (found = findRepoOwners(options, dir)));
    return found;
  };
  if (options.codeowners !== undefined) {
    try {
      await ownersOfDir(files.length > 0 ? dirname(resolve(files[0]!)) : process.cwd());
    } catch (error) {
      return refuseCommand((error as Error).message);
    }
  }
  let store: AnyStore | null = null;
  let evidence: EvidenceStore | null = null;
  if (files.length > 0) {
    try {
      // Either engine: ingestFile stores on SQLite synchronously and on PostgreSQL in bulk.
      store = await openAnyStore(resolveDbTarget(options.db));
      if (attachments.mode !== 'none') evidence = await openEvidenceStore(evidenceOptionsOf(options), store);
      // PostgreSQL without --evidence keeps none (docs/evidence.md: several servers need one shared place),
      // rather than a line per attachment saying the store failed.
      if (evidence?.location === 'none') evidence = null;
    } catch (error) {
      await store?.close();
      process.stderr.write(`flakeboard: ${(error as Error).message}\n`);
      return 1;
    }
  }
  // Asked once per command, while the first file is read: the CI's variables, else `git`.
  const gitDetection: Promise<GitFallback> = options.branch && options.commit ? Promise.resolve({ branch: null, commit: null }) : detectGit();
  let alerts = 0;
  const progress = createProgress(files.length, options.json ? null : process.stderr);
  try {
    for (const file of files) {
      progress.start(file);
      try {
        const [info, git, owners] = await Promise.all([stat(file), gitDetection, ownersOfDir(dirname(resolve(file)))]);
        if (info.isDirectory()) throw Object.assign(new Error('it is a folder'), { code: 'EISDIR' });
        const ingest: IngestOptions = {
          // Evidence is the collector's alone: a blob's hash named in the report is not believed.
          evidence: () => {},
          fileName: file,
          runName: options.name?.trim() ?? null,
          uploadedVia,
          project: options.project ?? null,
          gitBranch: options.branch ?? null,
          gitCommit: options.commit ?? null,
          buildId: build.buildId,
          buildUrl: build.buildUrl,
          fallbackGit: () => git,
          fallbackStartedAt: Math.round(info.mtimeMs),
          approve: options.approve ?? false,
          ownersFor: ownersForReport(owners),
          onProgress: (done, all) => progress.tests(done, all),
        };
        // Read once, in chunks, while it is stored: memory follows a file suite, not the report.
        // Each test's blobs are stored before the test, and the run commits after them.
        const blobRows: BlobRow[] = [];
        const collector = evidence
          ? new EvidenceCollector(file, { ...attachments, keep: storeBlobs(store!, evidence, Date.now, blobRows), onSkip: (line) => printError(`  ${line}`) })
          : null;
        // A large report is read in a thread of its own while this one writes (ingest-thread.ts).
        const result =
          collector || info.size >= READER_THREAD_MIN_BYTES ? await ingestFileCollecting(store!, file, ingest, collector, blobRows) : await ingestFile(store!, file, ingest);
        outcomes.push(stored(file, result));
        await auditCli(store!, { action: 'run.import', target: { type: 'run', id: result.runId, label: file }, detail: { tests: result.tests, status: result.status, duplicate: result.duplicate } });
        progress.clear();
        print(describeStored(file, result));
        if (collector && collector.summary.stored + collector.summary.skipped > 0) print(`  ${describeEvidence(collector.summary, evidence!)}`);
        // Queued, not sent: a running server's drain (or `flakeboard webhook drain`) sends them.
        if (!result.duplicate) alerts += await enqueueAfterCommit(store!, result.runId, (m) => printError(`! ${m}`));
      } catch (error) {
        const message = describeImportError(file, error, store!);
        outcomes.push(refused(file, message));
        progress.clear();
        printError(`✗ ${message}`);
      }
    }
  } finally {
    progress.done();
    await evidence?.close();
    await store?.close();
  }
  if (alerts > 0 && !options.json) print(`${alerts} webhook ${alerts === 1 ? 'alert' : 'alerts'} queued: a running \`flakeboard serve\` on this database sends them, or \`flakeboard webhook drain\``);
  if (options.json) process.stdout.write(`${terminalJson(outcomes, 2)}\n`);
  else if (outcomes.length > 1) print(summarise(outcomes));
  return outcomes.some((o) => o.error !== undefined) ? 1 : 0;
}

function refuseCommand(problem: string): number {
  process.stderr.write(`flakeboard import: ${problem}\n`);
  return 1;
}

function describeImportError(file: string, error: unknown, store: AnyStore): string {
  if (error instanceof InvalidReportError) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  if (store.dialect === 'postgres') {
    const trouble = describePostgresTrouble(store.target, error);
    if (trouble !== null) return `${file}: ${trouble}`;
  }
  if (typeof code === 'string' && code.startsWith('E')) return `${file}: cannot read the file: ${describeFsError(error)}`;
  if (code === 'SQLITE_FULL') return `${file}: the disk is full; nothing was stored`;
  if (typeof code === 'string' && code.startsWith('SQLITE_READONLY')) return `${file}: the database is read-only; nothing was stored`;
  // Writers wait for each other (openStore's busy timeout); this is only a lock never released.
  if (code === 'SQLITE_BUSY') return `${file}: another program kept the database locked for ${DEFAULT_BUSY_TIMEOUT_MS / 60_000} minutes; nothing was stored`;
  return `${file}: ${(error as Error).message}`;
}

/**
 * What PostgreSQL's error means for the user, naming the database (its URL without the
 * password) and what to do; null for an error that is not the database's (a file unreadable).
 * The report's transaction rolled back: nothing of it was stored.
 */
export function describePostgresTrouble(shownUrl: string, error: unknown): string | null {
  const code = String((error as { code?: unknown }).code ?? '');
  const message = error instanceof Error ? error.message : String(error);
  if (code === '53100') return `the disk of PostgreSQL at ${shownUrl} is full; nothing was stored: free space on the database server, then import again`;
  if (code === '25006') return `PostgreSQL at ${shownUrl} is read-only (a standby, or default_transaction_read_only); nothing was stored: point --db at the primary`;
  // 57P01 is what a connection ended by pg_terminate_backend, a fast shutdown or a failover hears.
  if (code === '57P01') return `PostgreSQL at ${shownUrl} ended the connection (a restart, a failover or an administrator's command); nothing was stored: import again once it is back`;
  if (/^57P0[23]$/.test(code)) return `PostgreSQL at ${shownUrl} is shutting down or restarting; nothing was stored: import again once it is back`;
  if (/^28/.test(code)) return `PostgreSQL at ${shownUrl} refused the login (${message}); nothing was stored: check the user and password`;
  if (databaseTrouble(error) !== 'unavailable') return null;
  return `lost the connection to PostgreSQL at ${shownUrl} (${message || code}); nothing was stored: check that the server runs, then import again`;
}

function stored(file: string, r: IngestResult): FileOutcome {
  const outcome: FileOutcome = { file, runId: r.runId, tests: r.tests, passed: r.passed, failed: r.failed, flaky: r.flaky, skipped: r.skipped, duplicate: r.duplicate, status: r.status };
  if (r.loadError !== null) outcome.loadError = r.loadError;
  return outcome;
}

function refused(file: string, error: string): FileOutcome {
  return { file, runId: null, tests: 0, passed: 0, failed: 0, flaky: 0, skipped: 0, duplicate: false, error };
}

function describeStored(file: string, r: IngestResult): string {
  const counts = `${r.tests} ${r.tests === 1 ? 'test' : 'tests'}, ${r.passed} passed, ${r.failed} failed, ${r.flaky} flaky, ${r.skipped} skipped`;
  if (r.duplicate) return `= ${file}: ${counts}; duplicate of run ${r.duplicateOf}, stored as run ${r.runId} pending review`;
  if (r.loadFailed) return `! ${file}: the run failed to load: ${r.loadError} (run ${r.runId})`;
  return `✓ ${file}: ${counts} (run ${r.runId})`;
}

function describeEvidence(s: CollectSummary, evidence: EvidenceStore): string {
  const kept = `${s.stored} ${s.stored === 1 ? 'attachment' : 'attachments'} kept as evidence (${s.written} new, ${formatMegabytes(s.bytesWritten)}) in ${evidence.location}`;
  return s.skipped > 0 ? `${kept}; ${s.skipped} skipped` : kept;
}

function formatMegabytes(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function summarise(outcomes: FileOutcome[]): string {
  const ok = outcomes.filter((o) => o.error === undefined);
  const tests = ok.reduce((sum, o) => sum + o.tests, 0);
  const failed = outcomes.length - ok.length;
  const duplicates = ok.filter((o) => o.duplicate).length;
  return `${ok.length} of ${outcomes.length} files imported (${tests} tests${duplicates ? `, ${duplicates} duplicate` : ''})${failed ? `, ${failed} refused` : ''}`;
}
