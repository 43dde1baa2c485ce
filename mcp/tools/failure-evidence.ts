import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import type { AttachmentInfo, AttemptEvidence } from '../../core/api/evidence.js';
import { ZipRefused } from '../../core/trace/capped-zip.js';
import { summariseTrace, type TraceSummary } from '../../core/trace/summary.js';
import { ToolInputError, type HistorySource } from '../source.js';
import { answer, firstErrorLine, quoted, REPORT_TEXT_NOTE } from './format.js';
import { testInput } from './test-history.js';
import { newestFirst, resultsOfTest } from './test-lookup.js';

/** Results read per project looking for the newest failure with evidence. */
const RESULTS_READ = 50;
/** An image past this is named, not sent: an agent's context is small. */
const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
/** Lines of the trace summary's lists an answer shows; the structured content has them all. */
const SHOWN = 10;

const FAILED = new Set(['failed', 'timedOut', 'interrupted']);

const summaryShape = z
  .object({
    playwrightVersion: z.string().nullable(),
    failingAction: z.object({ title: z.string(), locator: z.string().nullable(), durationMs: z.number().nullable(), error: z.string().nullable() }).nullable(),
    actions: z.array(z.object({ title: z.string(), locator: z.string().nullable(), durationMs: z.number().nullable(), error: z.string().nullable() })),
    consoleErrors: z.array(z.object({ text: z.string(), location: z.string().nullable() })),
    pageErrors: z.array(z.string()),
    failedRequests: z.array(z.object({ method: z.string(), url: z.string(), status: z.number().nullable(), failure: z.string().nullable() })),
    omitted: z.number(),
  })
  .nullable();
const outputShape = {
  source: z.string(),
  test: z.object({ file: z.string(), title: z.string(), project: z.string() }),
  result: z.object({ id: z.number(), runId: z.number(), runDate: z.string(), status: z.string(), error: z.string().nullable() }),
  attempts: z.array(
    z.object({
      retry: z.number(),
      status: z.string(),
      screenshot: z.object({ name: z.string(), state: z.string(), sent: z.boolean(), note: z.string().nullable() }).nullable(),
      trace: z.object({ state: z.string(), summary: summaryShape, note: z.string().nullable() }).nullable(),
    }),
  ),
};

export function registerFailureEvidence(server: McpServer, source: HistorySource): void {
  server.registerTool(
    'failure_evidence',
    {
      title: "A failure's screenshot and trace",
      description:
        "What the user would see of a test's newest stored failure that kept evidence: each failed attempt's screenshot (as an image) and a summary of its Playwright trace " +
        '(the failing action and its locator, console errors, page errors, failed network requests, the actions with their durations). ' +
        'Use it after test_history or last_run_failures, to see what the page looked like and did when the test failed. ' +
        REPORT_TEXT_NOTE,
      inputSchema: testInput,
      outputSchema: outputShape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ file, title, project }) => {
      const found = await resultsOfTest(source, { file, title, project }, RESULTS_READ);
      const result = newestFirst(found.projects, Number.MAX_SAFE_INTEGER).find((r) => (r.attempts ?? []).some((a) => FAILED.has(a.status) && a.attachments.length > 0));
      if (!result) {
        throw new ToolInputError(
          `no stored failure of ${quoted(found.title)} in ${quoted(found.file)} kept evidence (of the newest ${RESULTS_READ} results per project): the runs were stored without attachments, or the test did not fail`,
        );
      }
      const lines = [
        `Test ${quoted(found.title)} in ${quoted(found.file)} on ${quoted(result.project)} (${source.where}): result ${result.id} of run ${result.run_id}, ${result.run_date}, ${result.status}.`,
        `error: ${quoted(firstErrorLine(result.error_message))}`,
      ];
      const images: CallToolResult['content'] = [];
      const attempts = [];
      for (const attempt of result.attempts.filter((a) => FAILED.has(a.status))) {
        lines.push('', `Attempt ${attempt.retry + 1} (${attempt.retry === 0 ? 'first' : `retry ${attempt.retry}`}): ${attempt.status}`);
        const screenshot = await screenshotOf(source, attempt, images);
        if (screenshot) lines.push(`- screenshot ${quoted(screenshot.name)}: ${screenshot.sent ? 'sent as an image below' : screenshot.note}`);
        const trace = await traceOf(source, attempt);
        if (trace) lines.push(...traceLines(trace.summary, trace.note));
        attempts.push({ retry: attempt.retry, status: attempt.status, screenshot, trace: trace && { state: trace.state, summary: trace.summary, note: trace.note } });
      }
      const text = answer(lines, {
        source: source.where,
        test: { file: found.file, title: found.title, project: result.project },
        result: { id: result.id, runId: result.run_id, runDate: result.run_date, status: result.status, error: firstErrorLine(result.error_message) },
        attempts,
      });
      return { ...text, content: [...text.content, ...images] };
    },
  );
}

async function screenshotOf(source: HistorySource, attempt: AttemptEvidence, images: CallToolResult['content']) {
  const attachment = attempt.attachments.find((a) => a.kind === 'screenshot');
  if (!attachment) return null;
  const missing = missingNote(attachment);
  if (missing) return { name: attachment.name, state: attachment.state, sent: false, note: missing };
  if (!['image/png', 'image/jpeg', 'image/webp', 'image/gif'].includes(attachment.contentType)) {
    return { name: attachment.name, state: attachment.state, sent: false, note: `not sent: ${attachment.contentType} is not an image type an agent reads` };
  }
  if ((attachment.size ?? 0) > MAX_IMAGE_BYTES) return { name: attachment.name, state: attachment.state, sent: false, note: `not sent: larger than ${MAX_IMAGE_BYTES / (1024 * 1024)} MB` };
  const bytes = await source.evidence(attachment.sha256!, MAX_IMAGE_BYTES);
  if (!bytes) return { name: attachment.name, state: attachment.state, sent: false, note: 'not sent: the evidence store no longer has it' };
  images.push({ type: 'image', data: Buffer.from(bytes).toString('base64'), mimeType: attachment.contentType });
  return { name: attachment.name, state: attachment.state, sent: true, note: null };
}

/** Traces are read whole to be summarised; a larger one is left to the viewer. */
const MAX_TRACE_BYTES = 200 * 1024 * 1024;

export async function traceOf(source: HistorySource, attempt: AttemptEvidence): Promise<{ state: string; summary: TraceSummary | null; note: string | null } | null> {
  const attachment = attempt.attachments.find((a) => a.kind === 'trace');
  if (!attachment) return null;
  const missing = missingNote(attachment);
  if (missing) return { state: attachment.state, summary: null, note: missing };
  if ((attachment.size ?? 0) > MAX_TRACE_BYTES) return { state: attachment.state, summary: null, note: 'not summarised: larger than 200 MB; open it in the trace viewer' };
  const bytes = await source.evidence(attachment.sha256!, MAX_TRACE_BYTES);
  if (!bytes) return { state: attachment.state, summary: null, note: 'not summarised: the evidence store no longer has it' };
  try {
    return { state: attachment.state, summary: summariseTrace(bytes), note: null };
  } catch (error) {
    if (error instanceof ZipRefused) return { state: attachment.state, summary: null, note: `not summarised: ${error.message}` };
    throw error;
  }
}

function missingNote(attachment: AttachmentInfo): string | null {
  if (attachment.state === 'stored' && attachment.sha256) return null;
  return {
    stored: 'not stored',
    'too-large': 'not kept: larger than the size limit for evidence',
    'not-found': 'not kept: the file was not there when the run was stored',
    dropped: 'removed later to keep the evidence store within its size limit',
    'not-stored': 'not stored: the evidence store failed or the upload did not carry it',
  }[attachment.state];
}

function traceLines(summary: TraceSummary | null, note: string | null): string[] {
  if (!summary) return [`- trace: ${note}`];
  const lines: string[] = [];
  const failing = summary.failingAction;
  lines.push(failing ? `- failing action: ${quoted(failing.title)}${failing.locator ? ` on ${quoted(failing.locator)}` : ''} after ${failing.durationMs ?? '?'} ms: ${quoted(firstErrorLine(failing.error))}` : '- failing action: none in the trace (the test failed outside an action)');
  const list = <T>(label: string, items: T[], show: (item: T) => string) => {
    lines.push(`- ${label}: ${items.length === 0 ? 'none' : ''}`);
    for (const item of items.slice(0, SHOWN)) lines.push(`  - ${show(item)}`);
    if (items.length > SHOWN) lines.push(`  - and ${items.length - SHOWN} more (in the structured content)`);
  };
  list('console errors', summary.consoleErrors, (m) => `${quoted(m.text)}${m.location ? ` at ${quoted(m.location)}` : ''}`);
  list('page errors', summary.pageErrors, (m) => quoted(m));
  list('failed requests', summary.failedRequests, (r) => `${r.method} ${quoted(r.url)}: ${r.status ?? quoted(r.failure ?? 'no answer')}`);
  list('actions', summary.actions, (a) => `${quoted(a.title)}${a.locator ? ` ${quoted(a.locator)}` : ''} ${a.durationMs ?? '?'} ms${a.error ? ' (failed)' : ''}`);
  return lines;
}
