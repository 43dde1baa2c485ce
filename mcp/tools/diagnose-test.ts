import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { type AiAnalysisRequest, type AiRecommendation } from '../../core/api/ai.js';
import { AI_REQUEST_LIMITS as LIMITS } from '../../core/api/ai-limits.js';
import type { TestResultDetail } from '../../core/api/analytics.js';
import type { HistorySource } from '../source.js';
import { answer, cap, percent, quoted, REPORT_TEXT_NOTE } from './format.js';
import { testInput } from './test-history.js';
import { resultsOfTest, type ProjectResults } from './test-lookup.js';

// Fields printed by name; whatever else the engine answers (cause class, evidence…) follows as JSON.
const PRINTED = new Set(['stabilityText', 'rootCause', 'confidence', 'engine', 'model', 'patterns', 'recommendations', 'browserNotes', 'timestamp', 'generatedInMs']);

const outputShape = {
  source: z.string(),
  test: z.object({ file: z.string(), title: z.string(), project: z.string() }),
  resultsSent: z.number(),
  diagnosis: z.record(z.string(), z.unknown()).describe("the analysis engine's answer, every field as it came"),
};

export function registerDiagnoseTest(server: McpServer, source: HistorySource): void {
  server.registerTool(
    'diagnose_test',
    {
      title: 'Diagnose a failing or flaky test',
      description:
        "flakeboard's diagnosis of one test on one project, from its stored history (the same analysis as the dashboard's AI tab): the likely root cause, " +
        'the patterns and evidence behind it, recommended fixes with code examples, browser notes, and a confidence from 0 to 1 (low confidence means the evidence does not decide). ' +
        'Without a project, the project where the test failed most is diagnosed. ' +
        REPORT_TEXT_NOTE,
      inputSchema: testInput,
      outputSchema: outputShape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ file, title, project }) => {
      const found = await resultsOfTest(source, { file, title, project }, LIMITS.recentResults);
      const chosen = mostFailing(found.projects);
      const request = analysisRequest(found.title, chosen.project, chosen.items);
      // Every field the engine gives is kept, named here or not.
      const diagnosis = (await source.analyse(request)) as unknown as Record<string, unknown>;
      const lines = [
        `Diagnosis of ${quoted(found.title)} in ${quoted(found.file)} on project ${quoted(chosen.project)} (${source.where}), from its ${request.recentResults.length} newest results ` +
          `(pass rate ${percent(request.testSummary.passRate)}, ${request.testSummary.failedRuns} failed):`,
        `flaky or not: ${String(diagnosis.stabilityText ?? '-')}`,
        `root cause: ${String(diagnosis.rootCause ?? '-')}`,
        `confidence: ${String(diagnosis.confidence ?? '-')} (engine ${String(diagnosis.engine ?? '-')}${diagnosis.model ? `, model ${String(diagnosis.model)}` : ''})`,
      ];
      if (Array.isArray(diagnosis.patterns) && diagnosis.patterns.length > 0) lines.push('patterns:', ...diagnosis.patterns.map((p) => `- ${String(p)}`));
      if (Array.isArray(diagnosis.recommendations) && diagnosis.recommendations.length > 0) {
        lines.push('recommended fixes:', ...(diagnosis.recommendations as AiRecommendation[]).map(recommendationText));
      }
      if (diagnosis.browserNotes) lines.push(`browser notes: ${String(diagnosis.browserNotes)}`);
      const rest = Object.fromEntries(Object.entries(diagnosis).filter(([key]) => !PRINTED.has(key)));
      if (Object.keys(rest).length > 0) lines.push(`more: ${cap(JSON.stringify(rest, null, 1), 8_000)}`);
      return answer(lines, {
        source: source.where,
        test: { file: found.file, title: found.title, project: chosen.project },
        resultsSent: request.recentResults.length,
        diagnosis,
      });
    },
  );
}

function recommendationText(r: AiRecommendation): string {
  if (typeof r === 'string') return `- ${r}`;
  return `- ${r.title}: ${r.description}${r.codeExample ? `\n  example:\n${r.codeExample.replace(/^/gm, '    ')}` : ''}`;
}

/** The project with the most failed results, then the most results. */
function mostFailing(projects: ProjectResults[]): ProjectResults {
  const failed = (p: ProjectResults) => p.items.filter((r) => r.status === 'failed' || r.status === 'timedOut').length;
  return [...projects].sort((a, b) => failed(b) - failed(a) || b.total - a.total)[0]!;
}

const trim = (text: string | null, max: number) => (text !== null && text.length > max ? text.slice(0, max) : text);

/** The body the dashboard's AI tab sends (ui/src/pages/flaky/ai-request.ts), from the same rows. */
export function analysisRequest(title: string, project: string, history: readonly TestResultDetail[]): AiAnalysisRequest {
  const rows = history.slice(0, LIMITS.recentResults);
  const ran = rows.filter((r) => r.status !== 'skipped');
  const passed = ran.filter((r) => r.status === 'passed').length;
  return {
    testSummary: {
      testTitle: title.slice(0, LIMITS.title),
      browser: project.slice(0, LIMITS.browser),
      passRate: ran.length === 0 ? 0 : passed / ran.length,
      totalRuns: rows.length,
      failedRuns: ran.length - passed,
    },
    recentResults: rows.map((r) => ({
      status: r.status,
      duration: r.duration_ms,
      errorMessage: trim(r.error_message, LIMITS.errorMessage),
      errorLocation: trim(r.error_location, LIMITS.shortText),
      errorStack: trim(r.error_stack, LIMITS.errorStack),
      codeSnippet: trim(r.error_snippet, LIMITS.codeSnippet),
      testSteps: trim(r.test_steps, LIMITS.testSteps),
      testFile: trim(r.test_file, LIMITS.shortText),
      runDate: r.run_date,
    })),
  };
}
