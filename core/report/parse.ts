import { decodeReportBytes } from './decode.js';
import type { PwReport } from './playwright-types.js';
import { validateReport, type ReportProblem } from './validate.js';

/** A file that cannot be imported. The message names the file and the problem. */
export class InvalidReportError extends Error {
  constructor(
    readonly fileName: string,
    readonly problem: string,
  ) {
    super(`${fileName}: ${problem}`);
    this.name = 'InvalidReportError';
  }
}

/** Parses report bytes (any of the encodings decodeReportBytes knows) into a checked report. */
export function parseReportBytes(bytes: Uint8Array, fileName: string, decodeUtf8?: (bytes: Uint8Array) => string): PwReport {
  if (bytes.length === 0) throw new InvalidReportError(fileName, 'the file is empty');
  return parseReportText(decodeReportBytes(bytes, decodeUtf8), fileName);
}

export function parseReportText(text: string, fileName: string): PwReport {
  if (text.trim() === '') throw new InvalidReportError(fileName, 'the file is empty');
  const value = parseJson(text, fileName);
  return checkReport(value, fileName);
}

/** Checks an already-parsed value (an upload's `testResults`) is a Playwright report. */
export function checkReport(value: unknown, fileName: string): PwReport {
  throwIfProblem(validateReport(value), fileName);
  return value as PwReport;
}

/** A report past one of REPORT_LIMITS is a report, just not one we take. */
export function throwIfProblem(problem: ReportProblem | null, fileName: string): void {
  if (!problem) return;
  throw new InvalidReportError(fileName, problem.limit ? `the report nests too deeply: ${problem.text}` : `not a Playwright JSON report: ${problem.text}`);
}

function parseJson(text: string, fileName: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    // Reports captured from stdout can carry lines printed by global setup or a web server
    // before (or after) the JSON; retry on the outermost object before giving up.
    const start = text.search(/^\{/m);
    const end = text.lastIndexOf('}');
    if (start > 0 && end > start) {
      try {
        return JSON.parse(text.slice(start, end + 1));
      } catch {
        // fall through to the first error, which points at the real problem
      }
    }
    throw new InvalidReportError(fileName, `invalid JSON: ${describeJsonError(error, text)}`);
  }
}

/** V8's messages say "at position N"; people need a line and column to find it. */
export function describeJsonError(error: unknown, text: string): string {
  const raw = error instanceof Error ? error.message : String(error);
  if (/Unexpected end of JSON input/i.test(raw)) {
    return `the file ends before the JSON is complete (truncated?) at line ${countLines(text, text.length)}`;
  }
  const match = /position (\d+)/.exec(raw);
  const reason = raw
    .replace(/\s*\(line \d+ column \d+\)/, '')
    // The quoted excerpt may itself hold quotes: cut from the first quote to the message's end.
    .replace(/,?\s*(?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, '')
    .replace(/ in JSON at position \d+/, '')
    .trim();
  if (!match) return reason;
  const position = Number(match[1]);
  if (position >= text.trimEnd().length) {
    return `the file ends before the JSON is complete (truncated?) at line ${countLines(text, text.length)}`;
  }
  const line = countLines(text, position);
  const column = position - text.lastIndexOf('\n', position - 1);
  return `${reason} at line ${line}, column ${column}`;
}

function countLines(text: string, end: number): number {
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}
