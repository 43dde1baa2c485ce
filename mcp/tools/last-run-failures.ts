import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import type { RecentUpload, TestResultRow } from '../../core/api/uploads.js';
import { ToolInputError, type HistorySource } from '../source.js';
import { answer, firstErrorLine, quoted, REPORT_TEXT_NOTE } from './format.js';

/** Runs read, newest first, looking for the newest one of a branch. */
const RUNS_SCANNED = 500;
const PAGE = 100;

const testShape = z.object({
  title: z.string(),
  fullTitle: z.string(),
  file: z.string(),
  project: z.string(),
  status: z.string(),
  retries: z.number(),
  durationMs: z.number(),
  error: z.string().nullable(),
});
const outputShape = {
  source: z.string(),
  run: z.object({
    id: z.number(),
    executedAt: z.string(),
    uploadedAt: z.string(),
    branch: z.string().nullable(),
    commit: z.string().nullable(),
    reviewStatus: z.string(),
    total: z.number(),
    passed: z.number(),
    failed: z.number().describe('tests whose first attempt failed (flaky ones included)'),
    skipped: z.number(),
  }),
  failed: z.array(testShape),
  flaky: z.array(testShape),
  truncated: z.boolean(),
};

export function registerLastRunFailures(server: McpServer, source: HistorySource): void {
  server.registerTool(
    'last_run_failures',
    {
      title: "The newest run's failures",
      description:
        'The newest stored run (optionally the newest of one git branch): its failed tests (failed or timed out, retries included) and its flaky tests (failed, then passed on retry), ' +
        'each with file, title, project and the first line of its error, plus the run\'s commit, branch and totals. Rejected and duplicate uploads are skipped. ' +
        'Use it after a CI run to see what broke; then test_history or diagnose_test on a test. ' +
        REPORT_TEXT_NOTE,
      inputSchema: {
        branch: z.string().min(1).max(500).optional().describe('the newest run of this git branch; default: the newest run of any branch'),
        limit: z.number().int().min(1).max(200).default(50).describe('at most this many failed and this many flaky tests (1-200)'),
      },
      outputSchema: outputShape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ branch, limit }) => {
      const run = await newestRun(source, branch);
      const detail = await source.run(run.id, limit);
      if (!detail) throw new ToolInputError(`run ${run.id} is no longer stored in ${source.where} (deleted meanwhile): ask again`);
      const row = (r: TestResultRow) => ({
        title: r.test_title,
        fullTitle: r.test_full_title,
        file: r.test_file,
        project: r.project_name || r.browser,
        status: r.status,
        retries: r.retry_count,
        durationMs: r.duration_ms,
        error: firstErrorLine(r.error_message),
      });
      // An expected failure (test.fail()) is not a failure of the run.
      const failed = detail.failed.items.filter((r) => r.outcome === 'unexpected').map(row);
      const flakyAll = detail.retried.flakyTests.filter((r) => r.outcome === 'flaky');
      const flaky = flakyAll.slice(0, limit).map(row);
      const truncated = detail.failed.total > detail.failed.items.length || flakyAll.length > limit || detail.retried.flakyTestsTotal > detail.retried.flakyTests.length;
      const u = detail.upload;
      const summary = {
        id: u.id,
        executedAt: u.execution_time,
        uploadedAt: u.timestamp,
        branch: u.git_branch,
        commit: u.git_commit,
        reviewStatus: u.status,
        total: u.total_tests,
        passed: u.passed_tests,
        failed: u.failed_tests,
        skipped: u.skipped_tests,
      };
      const lines = [
        `Run ${u.id} (${source.where}) ran ${u.execution_time}, branch ${u.git_branch === null ? '-' : quoted(u.git_branch)}, commit ${quoted(u.git_commit)}: ` +
          `${u.total_tests} tests: ${u.passed_tests} passed, ${u.failed_tests} failed on the first attempt, ${u.skipped_tests} skipped; in the end ${detail.failed.total} failed or timed out${truncated ? ` (the first ${failed.length} failed and ${flaky.length} flaky shown)` : ''} and ${flakyAll.length}${detail.retried.flakyTestsTotal > detail.retried.flakyTests.length ? '+' : ''} flaky (passed on retry).`,
      ];
      const print = (heading: string, rows: ReturnType<typeof row>[]) => {
        if (rows.length === 0) return;
        lines.push('', heading);
        for (const r of rows) lines.push(`- file ${quoted(r.file)} title ${quoted(r.title)} project ${quoted(r.project)}: ${r.status}${r.retries > 0 ? ` (${r.retries} retries)` : ''}${r.error ? `, error ${quoted(r.error)}` : ''}`);
      };
      print('Failed:', failed);
      print('Flaky (passed on retry):', flaky);
      return answer(lines, { source: source.where, run: summary, failed, flaky, truncated });
    },
  );
}

async function newestRun(source: HistorySource, branch: string | undefined): Promise<RecentUpload> {
  const branches = new Set<string>();
  let read = 0;
  for (let page = 1; read < RUNS_SCANNED; page++) {
    const runs = await source.recentRuns({ page, pageSize: PAGE });
    for (const run of runs.items) {
      if (run.git_branch) branches.add(run.git_branch);
      if (run.status === 'rejected' || run.is_duplicate === 1) continue;
      if (branch === undefined || run.git_branch === branch) return run;
    }
    read += runs.items.length;
    if (runs.items.length < PAGE || read >= runs.total) break;
  }
  if (branch === undefined) throw new ToolInputError(`no runs are stored in ${source.where} (rejected and duplicate uploads do not count)`);
  const known = [...branches].slice(0, 20).map((b) => JSON.stringify(b));
  throw new ToolInputError(`no run of branch ${JSON.stringify(branch)} among the newest ${read} runs in ${source.where}; branches seen: ${known.length > 0 ? known.join(', ') : 'none'}`);
}
