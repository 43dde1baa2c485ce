/**
 * Step 1 of the upload flow (docs/screens.md#upload): each picked file is read and parsed locally, with
 * the same parser and browser detection the server uses, so the Detected Files list shows what
 * the import will store before anything is sent.
 */
import { decodeReportBytes } from '../../../../core/report/decode.js';
import { normaliseReport } from '../../../../core/report/normalise.js';
import { InvalidReportError, parseReportText } from '../../../../core/report/parse.js';
import type { PwReport } from '../../../../core/report/playwright-types.js';

/** docs/screens.md#upload: a name ending in .json, or the JSON media type. */
export function isJsonFile(file: { name: string; type: string }): boolean {
  return file.name.toLowerCase().endsWith('.json') || file.type === 'application/json';
}

export type FileAnalysis =
  | {
      kind: 'report';
      /** The parsed JSON, posted as the upload's testResults. */
      value: PwReport;
      browser: string;
      /** The detected project ('Multi-browser' when several browsers ran). */
      project: string | null;
      tests: number;
      passed: number;
      failed: number;
    }
  /** Valid JSON that the local check does not take for a report: the server has the last word (and its error text). */
  | { kind: 'unrecognised'; value: unknown; problem: string }
  | { kind: 'invalid'; error: string };

const INVALID_JSON = 'invalid JSON: ';
const EMPTY = 'the file is empty';

/** Parses a file's bytes (UTF-8, or UTF-16 as PowerShell writes it) into what the upload needs. */
export function analyseReportBytes(bytes: Uint8Array, fileName: string): FileAnalysis {
  let text: string;
  try {
    text = decodeReportBytes(bytes);
  } catch {
    return { kind: 'invalid', error: readFailure(fileName) };
  }
  let report: PwReport;
  try {
    report = parseReportText(text, fileName);
  } catch (error) {
    if (!(error instanceof InvalidReportError)) return { kind: 'invalid', error: readFailure(fileName) };
    if (error.problem === EMPTY) return { kind: 'invalid', error: invalidJson(fileName, EMPTY) };
    if (error.problem.startsWith(INVALID_JSON)) return { kind: 'invalid', error: invalidJson(fileName, error.problem.slice(INVALID_JSON.length)) };
    try {
      return { kind: 'unrecognised', value: JSON.parse(text), problem: error.problem };
    } catch {
      // Only reachable when the parser recovered JSON from around printed lines; say what it said.
      return { kind: 'invalid', error: error.message };
    }
  }
  const run = normaliseReport(report);
  return {
    kind: 'report',
    value: report,
    browser: run.detected.browser,
    project: run.detected.project,
    tests: testCount(report, run.counts.tests),
    passed: run.counts.passed,
    failed: run.counts.failed,
  };
}

/** docs/screens.md#upload: the test count uses stats.expected, else the counted tests. */
export function testCount(report: Pick<PwReport, 'stats'>, counted: number): number {
  const expected = report.stats?.expected;
  return typeof expected === 'number' && expected > 0 ? expected : counted;
}

export function invalidJson(fileName: string, reason: string): string {
  return `Invalid JSON in ${fileName}: ${reason}`;
}

export function readFailure(fileName: string): string {
  return `Failed to read ${fileName}`;
}

/** Reads a picked file; an unreadable one (removed, no permission) becomes the per-file error of docs/screens.md#upload. */
export async function analyseReportFile(file: File): Promise<FileAnalysis> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch {
    return { kind: 'invalid', error: readFailure(file.name) };
  }
  return analyseReportBytes(bytes, file.name);
}
