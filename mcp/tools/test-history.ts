import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import type { HistorySource } from '../source.js';
import { answer, firstErrorLine, quoted, REPORT_TEXT_NOTE } from './format.js';
import { newestFirst, resultsOfTest } from './test-lookup.js';

/** The inputs that name one test, shared by test_history, test_errors and diagnose_test. */
export const testInput = {
  file: z.string().min(1).max(2000).describe('the spec file as stored, e.g. "checkout.spec.ts" (as list_flaky_tests or last_run_failures print it)'),
  title: z.string().min(1).max(2000).describe("the test's own title, e.g. \"applies a discount code\""),
  project: z.string().min(1).max(200).optional().describe('one Playwright project (e.g. "chromium"); default: every project the test ran in'),
};

const outputShape = {
  source: z.string(),
  test: z.object({ file: z.string(), title: z.string() }),
  projects: z.array(z.object({ project: z.string(), totalResults: z.number() })),
  results: z.array(
    z.object({
      runId: z.number(),
      runDate: z.string(),
      project: z.string(),
      status: z.string(),
      outcome: z.string(),
      retries: z.number(),
      durationMs: z.number(),
      error: z.string().nullable(),
      commit: z.string().nullable(),
      branch: z.string().nullable(),
    }),
  ),
};

export function registerTestHistory(server: McpServer, source: HistorySource): void {
  server.registerTool(
    'test_history',
    {
      title: "A test's recent results",
      description:
        "One test's newest stored results, newest first: run date, project, status of the first attempt (passed, failed, timedOut, skipped), " +
        'Playwright outcome (expected, unexpected, flaky = passed on retry, skipped), retries, duration, the first line of the error, and the git commit and branch of the run. ' +
        'Use it to see when a test started failing and on which commit, or whether it fails on one project only. ' +
        REPORT_TEXT_NOTE,
      inputSchema: { ...testInput, limit: z.number().int().min(1).max(100).default(20).describe('how many results (1-100)') },
      outputSchema: outputShape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ file, title, project, limit }) => {
      const found = await resultsOfTest(source, { file, title, project }, limit);
      const results = newestFirst(found.projects, limit).map((r) => ({
        runId: r.run_id,
        runDate: r.run_date,
        project: r.project,
        status: r.status,
        outcome: r.outcome,
        retries: r.retries,
        durationMs: r.duration_ms,
        error: firstErrorLine(r.error_message),
        commit: r.git_commit,
        branch: r.git_branch,
      }));
      const projects = found.projects.map((p) => ({ project: p.project, totalResults: p.total }));
      const lines = [
        `Test ${quoted(found.title)} in ${quoted(found.file)} (${source.where}): ${projects.map((p) => `${p.totalResults} result(s) on ${quoted(p.project)}`).join(', ')}; the newest ${results.length}:`,
      ];
      for (const r of results) {
        lines.push(
          `- ${r.runDate} run ${r.runId} ${quoted(r.project)}: ${r.status} (${r.outcome}${r.retries > 0 ? `, ${r.retries} retries` : ''}), ${r.durationMs} ms, ` +
            `commit ${quoted(r.commit)} branch ${r.branch === null ? '-' : quoted(r.branch)}${r.error ? `, error ${quoted(r.error)}` : ''}`,
        );
      }
      return answer(lines, { source: source.where, test: { file: found.file, title: found.title }, projects, results });
    },
  );
}
