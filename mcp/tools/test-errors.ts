import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { stripAnsi } from '../../core/ansi.js';
import { classifyError } from '../../core/errors/classify.js';
import { fingerprintError } from '../../core/errors/fingerprint.js';
import type { HistorySource } from '../source.js';
import { answer, cap, firstErrorLine, MAX_SAMPLE_CHARS, quoted, REPORT_TEXT_NOTE } from './format.js';
import { testInput } from './test-history.js';
import { newestFirst, resultsOfTest } from './test-lookup.js';

/** The newest results read per project: the API's largest page. */
const RESULTS_READ = 200;
/** A message is classified by its head: enough for every rule, and bounded on hostile text. */
const HEAD_CHARS = 20_000;

const outputShape = {
  source: z.string(),
  test: z.object({ file: z.string(), title: z.string() }),
  resultsRead: z.number(),
  failuresWithError: z.number(),
  errors: z.array(
    z.object({
      fingerprint: z.string(),
      category: z.string(),
      count: z.number(),
      projects: z.array(z.string()),
      firstSeen: z.string(),
      lastSeen: z.string(),
      summary: z.string().nullable(),
      sampleMessage: z.string(),
    }),
  ),
};

export function registerTestErrors(server: McpServer, source: HistorySource): void {
  server.registerTool(
    'test_errors',
    {
      title: "A test's distinct errors",
      description:
        "The distinct errors of one test over its newest stored results (up to 200 per project), grouped by fingerprint (messages that differ only in numbers, ids, " +
        'durations, ports and quoted values are one error): category, how many times, on which projects, first and last seen, and one sample message. ' +
        'One error every time points at a steady cause; several point at an unstable one. ' +
        REPORT_TEXT_NOTE,
      inputSchema: testInput,
      outputSchema: outputShape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ file, title, project }) => {
      const found = await resultsOfTest(source, { file, title, project }, RESULTS_READ);
      const results = newestFirst(found.projects, Number.MAX_SAFE_INTEGER);
      const groups = new Map<string, { fingerprint: string; category: string; count: number; projects: Set<string>; firstSeen: string; lastSeen: string; message: string }>();
      let failures = 0;
      for (const r of results) {
        if (!r.error_message) continue;
        failures++;
        const head = stripAnsi(r.error_message.slice(0, HEAD_CHARS));
        const category = classifyError(head);
        const fingerprint = fingerprintError(category, head);
        const group = groups.get(fingerprint);
        if (!group) {
          groups.set(fingerprint, { fingerprint, category, count: 1, projects: new Set([r.project]), firstSeen: r.run_date, lastSeen: r.run_date, message: head });
        } else {
          group.count++;
          group.projects.add(r.project);
          // Newest first: each later row is older.
          group.firstSeen = r.run_date;
        }
      }
      const errors = [...groups.values()]
        .sort((a, b) => b.count - a.count || (a.lastSeen < b.lastSeen ? 1 : -1))
        .map((g) => ({
          fingerprint: g.fingerprint,
          category: g.category,
          count: g.count,
          projects: [...g.projects].sort(),
          firstSeen: g.firstSeen,
          lastSeen: g.lastSeen,
          summary: firstErrorLine(g.message),
          sampleMessage: cap(g.message, MAX_SAMPLE_CHARS),
        }));
      const lines = [`Test ${quoted(found.title)} in ${quoted(found.file)} (${source.where}): ${errors.length} distinct error(s) in ${failures} result(s) with an error, of the ${results.length} newest read.`];
      for (const e of errors) {
        lines.push('', `- ${e.count}× ${e.category} on ${e.projects.map(quoted).join(', ')}, ${e.firstSeen} to ${e.lastSeen}, fingerprint ${e.fingerprint}`, `  first line: ${quoted(e.summary)}`, `  sample: ${quoted(e.sampleMessage)}`);
      }
      return answer(lines, { source: source.where, test: { file: found.file, title: found.title }, resultsRead: results.length, failuresWithError: failures, errors });
    },
  );
}
