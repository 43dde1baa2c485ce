import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { coversTest } from '../../core/gate/classify.js';
import type { QuarantineView } from '../../core/api/quarantine.js';
import type { HistorySource } from '../source.js';
import { answer, percent, quoted, REPORT_TEXT_NOTE } from './format.js';

// The flaky list filtered by file is read page by page: at most this many groups are scanned.
const FILE_SCAN_PAGES = 5;
const PAGE = 200;

const quarantineShape = z.object({ reason: z.string(), owner: z.string().nullable(), expiresAt: z.string().nullable(), through: z.string().nullable() }).nullable();
const outputShape = {
  source: z.string(),
  days: z.number(),
  total: z.number().describe('flaky tests matching the filters (the list holds the first `limit`)'),
  tests: z.array(
    z.object({
      title: z.string(),
      file: z.string(),
      highestFlakyScore: z.number(),
      worstPassRate: z.number(),
      runs: z.number(),
      failed: z.number(),
      lastFailure: z.string().nullable(),
      projects: z.array(
        z.object({
          project: z.string(),
          flakyScore: z.number(),
          passRate: z.number(),
          runs: z.number(),
          failed: z.number(),
          passedOnRetry: z.number(),
          trend: z.string().nullable(),
          quarantine: quarantineShape,
        }),
      ),
    }),
  ),
};

export function registerListFlakyTests(server: McpServer, source: HistorySource, now: () => number): void {
  server.registerTool(
    'list_flaky_tests',
    {
      title: 'List flaky tests',
      description:
        'The flaky Playwright tests in the stored history, most unstable first: per project the flaky score (0-100, how often the outcome flips between pass and fail), ' +
        'pass rate, runs, failures, passes on retry, 7-day trend, and whether a quarantine entry covers it (it then does not block the CI gate). ' +
        'Use it to find which tests are flaky before fixing one; then call test_history, test_errors or diagnose_test with its file and title. ' +
        REPORT_TEXT_NOTE,
      inputSchema: {
        days: z.number().int().min(0).max(3650).default(30).describe('only runs of the last N days; 0 for all history'),
        limit: z.number().int().min(1).max(100).default(20).describe('how many tests to list (1-100)'),
        project: z.string().min(1).max(200).optional().describe('only this Playwright project (e.g. "chromium")'),
        file: z.string().min(1).max(2000).optional().describe('only tests whose spec file path contains this text'),
      },
      outputSchema: outputShape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ days, limit, project, file }) => {
      const wanted = file?.toLowerCase();
      const matches = (f: string) => wanted === undefined || f.toLowerCase().includes(wanted);
      const groups = [];
      let total = 0;
      if (file === undefined) {
        const page = await source.flakyTests({ days, search: null, browser: project ?? null, page: 1, pageSize: limit });
        groups.push(...page.items);
        total = page.total;
      } else {
        // The API's search matches title or file: the file filter keeps the file matches only.
        for (let n = 1; n <= FILE_SCAN_PAGES; n++) {
          const page = await source.flakyTests({ days, search: file, browser: project ?? null, page: n, pageSize: PAGE });
          const hits = page.items.filter((g) => matches(g.test_file));
          total += hits.length;
          groups.push(...hits);
          if (n * PAGE >= page.total) break;
        }
      }
      const quarantine = (await source.quarantine()).filter((q) => q.removedAt === null && !q.expired);
      const t = now();
      const entryFor = (title: string, testFile: string, browser: string): QuarantineView | undefined =>
        quarantine.find((q) => coversTest(q, { title, file: testFile, project: browser }, t));
      const tests = groups.slice(0, limit).map((g) => ({
        title: g.test_title,
        file: g.test_file,
        highestFlakyScore: g.highest_flaky_score,
        worstPassRate: g.worst_pass_rate,
        runs: g.total_runs_all_browsers,
        failed: g.total_failed_all_browsers,
        lastFailure: g.last_failure ?? null,
        projects: g.browsers
          .filter((b) => project === undefined || b.browser === project)
          .map((b) => {
            const entry = entryFor(g.test_title, g.test_file, b.browser);
            return {
              project: b.browser,
              flakyScore: b.flaky_score,
              passRate: b.pass_rate,
              runs: b.total_runs,
              failed: b.failed_runs,
              passedOnRetry: b.passed_on_retry,
              trend: b.trend_direction ?? null,
              quarantine: entry
                ? { reason: entry.reason, owner: entry.owner, expiresAt: entry.expiresAt === null ? null : new Date(entry.expiresAt).toISOString(), through: entry.through }
                : null,
            };
          }),
      }));
      const window = days === 0 ? 'all history' : `the last ${days} days`;
      const lines = [`${total} flaky test(s) in ${window} of ${source.where}${project ? `, project ${quoted(project)}` : ''}${file ? `, files containing ${quoted(file)}` : ''}; showing ${tests.length}.`];
      for (const test of tests) {
        lines.push('', `- title ${quoted(test.title)} file ${quoted(test.file)}: flaky score ${test.highestFlakyScore}, worst pass rate ${percent(test.worstPassRate)}, ${test.failed}/${test.runs} runs failed, last failure ${test.lastFailure ?? '-'}`);
        for (const p of test.projects) {
          const q = p.quarantine ? `; quarantined (${quoted(p.quarantine.reason)}${p.quarantine.through ? ` through ${p.quarantine.through}` : ''})` : '';
          lines.push(`  - project ${quoted(p.project)}: score ${p.flakyScore}, pass rate ${percent(p.passRate)}, ${p.failed}/${p.runs} failed, ${p.passedOnRetry} passed on retry, trend ${p.trend ?? '-'}${q}`);
        }
      }
      if (tests.length === 0) lines.push('No flaky tests: no test both passed and failed (or passed only on retry) in this window.');
      return answer(lines, { source: source.where, days, total, tests });
    },
  );
}
