import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { partnerWords, type AttemptPartner } from '../../core/api/attempt-comparison.js';
import type { AttemptEvidence } from '../../core/api/evidence.js';
import { compareAttempts, type AttemptComparison } from '../../core/trace/compare.js';
import { ToolInputError, type HistorySource } from '../source.js';
import { traceOf } from './failure-evidence.js';
import { answer, firstErrorLine, quoted, REPORT_TEXT_NOTE } from './format.js';
import { testInput } from './test-history.js';
import { newestFirst, resultsOfTest } from './test-lookup.js';

/** Results read per project looking for a failed attempt and a passing one. */
const RESULTS_READ = 50;
/** Lines of each list the text shows; the structured content has them all. */
const SHOWN = 10;

const FAILED = new Set(['failed', 'timedOut', 'interrupted']);

const attemptShape = z.object({ resultId: z.number(), runId: z.number(), retry: z.number(), status: z.string(), runDate: z.string() });
const outputShape = {
  source: z.string(),
  test: z.object({ file: z.string(), title: z.string(), project: z.string() }),
  failing: attemptShape,
  passing: attemptShape,
  partner: z.enum(['retry', 'same-commit', 'nearest']),
  partnerText: z.string(),
  tracesMissing: z.boolean(),
  note: z.string().nullable(),
  comparison: z.unknown(),
};

type Found = { result: { id: number; run_id: number; run_date: string; git_commit?: string | null }; attempt: AttemptEvidence };

export function registerCompareAttempts(server: McpServer, source: HistorySource): void {
  server.registerTool(
    'compare_attempts',
    {
      title: 'A failing attempt beside a passing one',
      description:
        "Lays a flaky test's newest failed attempt beside a passing one, chosen in this order: the passing retry in the same run, else a passing run on the same commit, else the passing run nearest in time (same project); read from their Playwright traces: " +
        'the first action where they parted (its locator and both outcomes), the requests, console errors and page errors only the failing attempt had, and the actions whose durations differ most. ' +
        'Use it after list_flaky_tests or failure_evidence, to see what the failing attempt did differently. ' +
        REPORT_TEXT_NOTE,
      inputSchema: testInput,
      outputSchema: outputShape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ file, title, project }) => {
      const found = await resultsOfTest(source, { file, title, project }, RESULTS_READ);
      const pair = pairOf(newestFirst(found.projects, Number.MAX_SAFE_INTEGER));
      if (!pair) {
        throw new ToolInputError(`no stored result of ${quoted(found.title)} in ${quoted(found.file)} has both a failed and a passing attempt (of the newest ${RESULTS_READ} results per project): nothing to compare`);
      }
      const { failing, passing, partner, project: where } = pair;
      const [a, b] = await Promise.all([traceOf(source, failing.attempt), traceOf(source, passing.attempt)]);
      const tracesMissing = !a?.summary || !b?.summary;
      const note = tracesMissing ? (a?.note ?? b?.note ?? 'one of the attempts kept no trace: record traces (trace: "on-first-retry" or "retain-on-failure") for a comparison') : null;
      const comparison = tracesMissing ? null : compareAttempts(a.summary!, b.summary!);
      const side = ({ result, attempt }: Found) => ({ resultId: result.id, runId: result.run_id, retry: attempt.retry, status: attempt.status, runDate: result.run_date });
      const partnerText = partnerWords(partner, { runId: passing.result.run_id, gitCommit: passing.result.git_commit ?? null, startedAt: passing.result.run_date });
      const lines = [
        `Test ${quoted(found.title)} in ${quoted(found.file)} on ${quoted(where)} (${source.where}):`,
        `failing: result ${failing.result.id} of run ${failing.result.run_id}, attempt ${failing.attempt.retry + 1}, ${failing.attempt.status}`,
        `passing: result ${passing.result.id} of run ${passing.result.run_id}, attempt ${passing.attempt.retry + 1} (${partnerText.replace(/^Compared with /, '')})`,
        ...(comparison ? comparisonLines(comparison) : [`traces: ${note}`]),
      ];
      return answer(lines, {
        source: source.where,
        test: { file: found.file, title: found.title, project: where },
        failing: side(failing),
        passing: side(passing),
        partner,
        partnerText,
        tracesMissing,
        note,
        comparison,
      });
    },
  );
}

type Result = { id: number; run_id: number; run_date: string; git_commit?: string | null; project?: string; attempts?: AttemptEvidence[] };

const timeOf = (result: Result) => Date.parse(result.run_date);

/**
 * The newest failed attempt with a passing retry in its run; else the newest failed attempt
 * beside a passing result of its project on the same commit, else the one nearest in time (the
 * same order as the API's comparison). Nearest first within each.
 */
export function pairOf(results: Result[]): { failing: Found; passing: Found; partner: AttemptPartner; project: string } | null {
  for (const result of results) {
    const attempts = result.attempts ?? [];
    const failing = attempts.find((a) => FAILED.has(a.status));
    const passing = failing && attempts.find((a) => a.status === 'passed' && a.retry > failing.retry);
    if (failing && passing) return { failing: { result, attempt: failing }, passing: { result, attempt: passing }, partner: 'retry', project: result.project ?? '' };
  }
  const failed = results.find((r) => (r.attempts ?? []).some((a) => FAILED.has(a.status)));
  if (!failed) return null;
  const passed = results
    .filter((r) => r !== failed && r.project === failed.project && (r.attempts ?? []).some((a) => a.status === 'passed'))
    .sort((x, y) => Math.abs(timeOf(x) - timeOf(failed)) - Math.abs(timeOf(y) - timeOf(failed)) || y.id - x.id);
  const sameCommit = failed.git_commit ? passed.find((r) => r.git_commit === failed.git_commit) : undefined;
  const partner = sameCommit ?? passed[0];
  if (!partner) return null;
  return {
    failing: { result: failed, attempt: failed.attempts!.find((a) => FAILED.has(a.status))! },
    passing: { result: partner, attempt: partner.attempts!.find((a) => a.status === 'passed')! },
    partner: sameCommit ? 'same-commit' : 'nearest',
    project: failed.project ?? '',
  };
}

function comparisonLines(c: AttemptComparison): string[] {
  const lines: string[] = [];
  const p = c.partedAt;
  if (!p) lines.push('- parted: nowhere; both attempts did the same actions with the same outcomes');
  else {
    const act = p.failing ?? p.passing!;
    const on = act.locator ? ` on ${quoted(act.locator)}` : '';
    if (p.reason === 'only-failing') lines.push(`- parted at ${quoted(act.title)}${on}: only the failing attempt did it, ${act.error ? `and it failed: ${quoted(firstErrorLine(act.error))}` : 'and it passed'}`);
    else if (p.reason === 'only-passing') lines.push(`- parted at ${quoted(act.title)}${on}: only the passing attempt did it`);
    else lines.push(`- parted at ${quoted(act.title)}${on}: failing attempt ${quoted(firstErrorLine(p.failing!.error) ?? 'passed')}, passing attempt ${quoted(firstErrorLine(p.passing!.error) ?? 'passed')}`);
  }
  const list = <T>(label: string, items: T[], show: (item: T) => string) => {
    lines.push(`- ${label}: ${items.length === 0 ? 'none' : ''}`);
    for (const item of items.slice(0, SHOWN)) lines.push(`  - ${show(item)}`);
    if (items.length > SHOWN) lines.push(`  - and ${items.length - SHOWN} more (in the structured content)`);
  };
  list('requests only the failing attempt failed or answered differently', c.requestsOnlyFailing, (r) => `${r.method} ${quoted(r.url)}: ${r.reason}, ${r.failing.status ?? quoted(r.failing.failure ?? 'no answer')}${r.passing ? ` (passing: ${r.passing.status ?? quoted(r.passing.failure ?? 'no answer')})` : ''}`);
  list('console errors only in the failing attempt', c.consoleErrorsOnlyFailing, (m) => quoted(m.text));
  list('page errors only in the failing attempt', c.pageErrorsOnlyFailing, (m) => quoted(m));
  list('actions whose durations differ most', c.slowerActions, (a) => `${quoted(a.title)}${a.locator ? ` ${quoted(a.locator)}` : ''}: ${a.failingMs} ms failing, ${a.passingMs} ms passing`);
  return lines;
}
