import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { Option, type Command } from 'commander';
import { gateTests } from '../../core/gate/answer.js';
import type { GateAnswer } from '../../core/gate/types.js';
import { normaliseReport } from '../../core/report/normalise.js';
import { InvalidReportError, parseReportBytes } from '../../core/report/parse.js';
import { GATE_DEFAULT_DAYS, runGate, type GateRequest } from '../../server/analytics/gate.js';
import { isPostgresUrl } from '../../server/store/engine/dialect.js';
import { openAnyStore } from '../../server/store/engine/open-any.js';
import { gateMarkdown } from '../gate-markdown.js';
import { gateText } from '../gate-output.js';
import { describeFsError } from '../inputs.js';
import { dbOption, resolveDbTarget } from '../options.js';
import { failurePlaces, type Place } from '../pull-request/annotations.js';
import { postAnswer } from '../pull-request/post-answer.js';
import { postToServer } from '../server-client.js';
import { inertLines, terminalJson } from '../../core/terminal-text.js';

interface CheckOptions {
  db: string;
  server?: string;
  token?: string;
  base?: string;
  days: string;
  json?: boolean;
  markdown?: string;
  dashboard?: string;
  github?: boolean;
  gitlab?: boolean;
}

export function registerCheck(program: Command): void {
  program
    .command('check')
    .description('the CI gate: tell new failures of a report from flaky, quarantined and already-broken ones (exit 1 only for new)')
    .argument('<report>', 'the Playwright JSON report of the run to check')
    .addOption(dbOption())
    .addOption(new Option('--server <url>', 'ask a flakeboard server instead of a database file').env('FLAKEBOARD_SERVER'))
    .addOption(new Option('--token <token>', 'an API token from `flakeboard token create` (with --server)').env('FLAKEBOARD_TOKEN'))
    .option('--base <branch>', 'the base branch whose history decides (default: main, else master)')
    .option('--days <n>', 'how far back the base history goes', String(GATE_DEFAULT_DAYS))
    .option('--json', 'print { verdict, failures: [{ title, file, project, class, reason, evidence }] }')
    .option('--markdown <file>', 'also write a summary for a CI job summary or a pull-request comment')
    .option('--dashboard <url>', 'the dashboard address for links in the summary (default: --server)')
    .option('--github', 'in GitHub Actions: annotate new failures, append the job summary, and create or update one pull-request comment (GITHUB_TOKEN)')
    .option('--gitlab', 'in GitLab CI: create or update one merge request note (FLAKEBOARD_GITLAB_TOKEN or GITLAB_TOKEN)')
    .action(async (report: string, options: CheckOptions) => {
      process.exitCode = await runCheck(report, options);
    });
}

async function runCheck(file: string, options: CheckOptions): Promise<number> {
  const days = Number(options.days);
  if (!Number.isInteger(days) || days < 1 || days > 365) return fail('--days must be a whole number from 1 to 365');
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    return fail(`${file}: cannot read the file: ${describeFsError(error)}`);
  }
  const dashboard = options.dashboard ?? options.server ?? null;
  if (dashboard !== null && !isWebAddress(dashboard)) return fail(`${options.dashboard ? '--dashboard' : '--server'} must be an http(s) address, not ${JSON.stringify(dashboard.slice(0, 100))}`);
  let request: GateRequest;
  let places: Place[];
  try {
    const report = parseReportBytes(bytes, file);
    const run = normaliseReport(report);
    request = { tests: gateTests(run), counts: run.counts, base: options.base ?? null, days, now: Date.now() };
    places = failurePlaces(run, report.config.rootDir, process.env.GITHUB_WORKSPACE);
  } catch (error) {
    if (error instanceof InvalidReportError) return fail(error.message);
    throw error;
  }

  let answer: GateAnswer;
  try {
    answer = options.server ? await askServer(options.server, options.token, request) : await askDatabase(resolveDbTarget(options.db), request);
  } catch (error) {
    return fail((error as Error).message);
  }
  if (options.markdown) await writeFile(options.markdown, gateMarkdown(answer, { dashboard }));
  process.stdout.write(options.json ? `${terminalJson(answer, 2)}\n` : gateText(answer));
  if (options.github || options.gitlab) {
    const post = { github: options.github === true, gitlab: options.gitlab === true, dashboard, annotationsTo: options.json ? process.stderr : process.stdout };
    await postAnswer(answer, places, post, process.env);
  }
  return answer.verdict === 'fail' ? 1 : 0;
}

/** `target`: the SQLite file or the PostgreSQL URL the runs are stored in. */
async function askDatabase(target: string, request: GateRequest): Promise<GateAnswer> {
  if (!isPostgresUrl(target) && !existsSync(target)) throw new Error(`no database at ${target}: point --db at the file the runs are stored in, or ask a server with --server`);
  // Opened as any command opens it, so an older database is migrated (the quarantine table).
  const store = await openAnyStore(target, { max: 2 });
  try {
    // Awaited here: the store closes only after the gate's last query.
    return await runGate(store, request);
  } finally {
    await store.close();
  }
}

function askServer(server: string, token: string | undefined, request: GateRequest): Promise<GateAnswer> {
  if (!token) throw new Error('no API token: pass --token or set FLAKEBOARD_TOKEN (create one with `flakeboard token create NAME`)');
  const { now: _now, ...body } = request;
  return postToServer<GateAnswer>(server, 'api/check', token, body);
}

function isWebAddress(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function fail(message: string): number {
  process.stderr.write(`${inertLines(`flakeboard check: ${message}`)}\n`);
  // 2, not 1: a check that could not run is not a verdict about the tests.
  return 2;
}
