import { statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { detectBrowsers } from '../../core/browsers.js';
import { gitFromMetadata } from '../../core/report/metadata.js';
import { InvalidReportError } from '../../core/report/parse.js';
import { detectBuild, detectGit } from '../git.js';
import { describeFsError, expandInputs } from '../inputs.js';
import { labelProblem } from '../options.js';
import { checkReportFile, type CheckedReport } from '../upload-body.js';
import { findRepoOwners, ownersForReport, type RepoOwners } from '../owners.js';
import { serverUploadLimit, UploadError, uploadReport } from '../upload-client.js';
import { addAttachmentOptions, attachmentSettings } from '../evidence-options.js';
import { sendEvidence } from '../upload-evidence.js';
import { inertLines, terminalJson } from '../../core/terminal-text.js';

interface UploadOptions {
  server?: string;
  token?: string;
  project?: string;
  branch?: string;
  commit?: string;
  buildId?: string;
  buildUrl?: string;
  retries: string;
  name?: string;
  json?: boolean;
  codeowners?: string;
  repoRoot?: string;
  attachments?: string;
  attachmentMaxSize?: string;
}

interface UploadOutcome {
  file: string;
  runId: number | null;
  tests: number;
  duplicate: boolean;
  /** pending or approved, as the server decided. */
  status?: string;
  error?: string;
}

export function registerUpload(program: Command): void {
  const command = program
    .command('upload')
    .description('send Playwright JSON reports to a flakeboard server (for CI)')
    .argument('<paths...>', 'report files, folders (searched for .json) or globs')
    .addOption(new Option('--server <url>', 'the server, e.g. https://flakeboard.example.com').env('FLAKEBOARD_SERVER'))
    .addOption(new Option('--token <token>', 'an API token from `flakeboard token create`').env('FLAKEBOARD_TOKEN'))
    .option('--project <name>', 'project name (default: from the report)')
    .option('--branch <name>', "git branch (default: the report's, else CI variables, else git)")
    .option('--commit <sha>', "git commit (default: the report's, else CI variables, else git)")
    .option('--build-id <id>', 'CI build id: the shards of one build are one run (default: CI variables)')
    .option('--build-url <url>', 'link to the CI build (http or https; default: CI variables)')
    .option('--retries <n>', 'retries on network errors and 502/503/504', '3')
    .option('--name <text>', "what the run is called in the review list and recent uploads (default: the file's name)")
    .option('--codeowners <file>', "CODEOWNERS file to attribute tests to owners with, resolved here and sent (default: the checkout's .github/CODEOWNERS, CODEOWNERS or docs/CODEOWNERS)")
    .option('--repo-root <dir>', "the repository's root, which CODEOWNERS patterns are relative to (default: git's root of the report's folder)")
    .option('--json', 'print one JSON array with an object per file');
  addAttachmentOptions(command).action(async (paths: string[], options: UploadOptions) => {
    process.exitCode = await runUpload(paths, options);
  });
}

async function runUpload(paths: string[], options: UploadOptions): Promise<number> {
  if (!options.server) return fail('no server to upload to: pass --server URL or set FLAKEBOARD_SERVER');
  if (!options.token) return fail('no API token: pass --token or set FLAKEBOARD_TOKEN (create one on the server with `flakeboard token create NAME`)');
  try {
    new URL(options.server);
  } catch {
    return fail(`--server must be a URL such as http://localhost:4680, not ${JSON.stringify(options.server)}`);
  }
  const build = detectBuild(options);
  if ('error' in build) return fail(build.error);
  const nameProblem = labelProblem('--name', options.name);
  if (nameProblem !== null) return fail(nameProblem);
  let attachments: ReturnType<typeof attachmentSettings>;
  try {
    attachments = attachmentSettings(options);
  } catch (error) {
    return fail((error as Error).message);
  }
  const retries = Number(options.retries);
  if (!Number.isInteger(retries) || retries < 0 || retries > 10) return fail('--retries must be a whole number from 0 to 10');

  const print = options.json ? () => {} : (line: string) => process.stdout.write(`${inertLines(line)}\n`);
  const printError = options.json ? () => {} : (line: string) => process.stderr.write(`${inertLines(line)}\n`);
  const outcomes: UploadOutcome[] = [];
  const refuse = (file: string, error: string) => {
    outcomes.push({ file, runId: null, tests: 0, duplicate: false, error });
    printError(`✗ ${error}`);
  };
  const inputs = await expandInputs(paths);
  const git = options.branch && options.commit ? { branch: null, commit: null } : await detectGit();
  let stopped: string | null = null;
  let limit: Promise<number | null> | null = null;
  for (const input of inputs) {
    if ('error' in input) {
      refuse(input.input, input.error);
      continue;
    }
    const file = input.file;
    if (stopped) {
      refuse(file, `${file}: not sent: ${stopped}`);
      continue;
    }
    try {
      // Checked here first, a file suite at a time: a broken file is named at once, without
      // a round trip, and the next file goes on.
      const report = checkReportFile(file, file);
      limit ??= serverUploadLimit(options.server);
      // The blobs first, as bytes (the server never reads a path), then the run that names them.
      const evidence = attachments.mode === 'none' ? null : await sendEvidence(file, { server: options.server, token: options.token, ...attachments, onSkip: (line) => printError(`  ${line}`) });
      const own = gitFromMetadata((report.config.metadata ?? {}) as Record<string, unknown>);
      // Owners are resolved here, in the checkout: the server reads no file an upload names.
      const codeowners = codeownersOf(await findRepoOwners(options, dirname(resolve(file))), report);
      const body = report.envelope({
        project: options.project ?? null,
        gitBranch: options.branch ?? own.branch ?? git.branch,
        gitCommit: options.commit ?? own.commit ?? git.commit,
        buildId: build.buildId,
        buildUrl: build.buildUrl,
        browser: detectBrowsers({ config: report.config }).browser,
        fileName: basename(file),
        ...(options.name ? { runName: options.name.trim() } : {}),
        fileSize: statSync(file).size,
        uploadTime: new Date().toISOString(),
        ...(codeowners ? { codeowners } : {}),
        ...(evidence && evidence.entries.length > 0 ? { evidence: evidence.entries } : {}),
      });
      const maxBytes = await limit;
      if (maxBytes !== null && body.length > maxBytes) {
        refuse(file, `${file}: the report is ${formatBytes(body.length)}, larger than the server accepts (${formatBytes(maxBytes)}); not sent: raise the server's --body-limit`);
        continue;
      }
      const response = await uploadReport(body, { server: options.server, token: options.token, retries, retryDelayMs: 500 });
      outcomes.push({ file, runId: response.runId, tests: response.testsProcessed, duplicate: response.duplicate, status: response.status });
      print(`✓ ${file}: ${response.testsProcessed} tests uploaded as run ${response.runId}${response.duplicate ? ', a duplicate of an earlier upload' : ''} (${response.status === 'approved' ? 'approved' : 'pending review'})`);
      if (evidence && evidence.summary.stored + evidence.summary.skipped > 0) {
        const s = evidence.summary;
        print(`  ${s.stored} attachments kept as evidence (${s.written} sent, ${formatBytes(s.bytesWritten)}; the rest the server had)${s.skipped > 0 ? `; ${s.skipped} skipped` : ''}`);
      }
    } catch (error) {
      if (error instanceof InvalidReportError) refuse(file, error.message);
      else if (error instanceof UploadError) {
        refuse(file, `${file}: ${error.message}`);
        if (error.fatal) stopped = error.message;
      } else if (typeof (error as NodeJS.ErrnoException).code === 'string') {
        refuse(file, `${file}: cannot read the file: ${describeFsError(error)}`);
      } else {
        // Whatever went wrong, it was this file's problem: name it and go on with the next.
        refuse(file, `${file}: ${(error as Error).message}`);
      }
    }
  }
  if (options.json) process.stdout.write(`${terminalJson(outcomes, 2)}\n`);
  return outcomes.some((o) => o.error !== undefined) ? 1 : 0;
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}

function fail(message: string): number {
  process.stderr.write(`flakeboard upload: ${message}\n`);
  return 1;
}

/** The CODEOWNERS owners of each test file of the report, or null when no CODEOWNERS was found. */
function codeownersOf(repo: RepoOwners | null, report: CheckedReport): Record<string, string[]> | null {
  const ownersFor = ownersForReport(repo);
  if (!ownersFor) return null;
  const fileOwners = ownersFor(typeof report.config.rootDir === 'string' ? report.config.rootDir : null)!;
  return Object.fromEntries(report.files.map((f) => [f, [...(fileOwners(f) ?? [])]]));
}
