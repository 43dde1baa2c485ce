import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateHistory } from '../../server/demo/history.js';
import { ownReports, publicReports } from '../../fixtures/testing/public-reports.js';
import { decodeReportBytes } from './decode.js';
import { InvalidReportError, parseReportText } from './parse.js';
import { readReportParts, type ReportPart } from './read-report.js';

/** The text cut into chunks of `size` characters, as a file read in pieces would be. */
const chunked = (text: string, size: number) => () => {
  const chunks: string[] = [];
  for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
  return chunks;
};

/** The report the parts make up again: equal to the whole-text parser's answer. */
function reassemble(parts: Iterable<ReportPart>): unknown {
  const report: Record<string, unknown> = { suites: [] };
  for (const part of parts) {
    if (part.kind === 'config') report.config = part.config;
    else if (part.kind === 'suite') (report.suites as unknown[])[part.index] = part.suite;
    else {
      if (part.errors !== undefined) report.errors = part.errors;
      if (part.stats !== undefined) report.stats = part.stats;
    }
  }
  return report;
}

function refusal(text: string, size = 5): string {
  try {
    reassemble(readReportParts(chunked(text, size), 'r.json'));
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidReportError);
    return (error as Error).message;
  }
  throw new Error('expected the report to be refused');
}

const generated = [...generateHistory({ seed: 5, runs: 2, tests: 12, days: 2 })].map((r) => JSON.stringify(r.report, null, 2));
const real = [...publicReports(), ...ownReports()].map((f) => decodeReportBytes(readFileSync(f)));

describe('readReportParts', () => {
  it('gives the same report as the whole-text parser, whatever the chunk boundaries', () => {
    for (const text of [...real, ...generated]) {
      const whole = parseReportText(text, 'r.json');
      const { errors, stats, config, suites } = whole;
      const expected = { config, suites, ...(errors !== undefined ? { errors } : {}), ...(stats !== undefined ? { stats } : {}) };
      for (const size of [1, 3, 64, 1 << 20]) expect(reassemble(readReportParts(chunked(text, size), 'r.json'))).toEqual(expected);
    }
  });

  it('strings with escaped quotes and backslashes across chunk ends', () => {
    const title = 'a "quoted" \\ back\\\\slash \\" {not a brace} [nor this] ✓';
    const report = { config: { projects: [] }, suites: [{ title, specs: [] }, { title: '\\', specs: [] }], stats: { startTime: '2026-01-01T00:00:00Z' } };
    const text = JSON.stringify(report);
    for (let size = 1; size < 12; size++) expect(reassemble(readReportParts(chunked(text, size), 'r.json'))).toEqual(report);
  });

  it('takes a config written after the suites, and lines printed before the report', () => {
    const suites = [{ title: 'a', specs: [] }];
    expect(reassemble(readReportParts(chunked(JSON.stringify({ suites, config: { version: '1.50.0' } }), 4), 'r.json'))).toEqual({ suites, config: { version: '1.50.0' } });
    const text = `[WebServer] listening on 3000\n${JSON.stringify({ config: {}, suites })}\n`;
    expect(reassemble(readReportParts(chunked(text, 4), 'r.json'))).toEqual({ config: {}, suites });
  });

  it('invalid JSON is placed by line and column in the whole file, not in its part', () => {
    const text = '{\n  "config": {},\n  "suites": [\n    {"title": "a", "specs": []},\n    {"title": "b" "specs": []}\n  ]\n}';
    expect(refusal(text)).toBe("r.json: invalid JSON: Expected ',' or '}' after property value at line 5, column 19");
    expect(refusal('{\n  "config": {},\n  oops\n}')).toBe('r.json: invalid JSON: Expected double-quoted property name at line 3, column 3');
    expect(refusal('{"config": {}, "suites": [1,]}')).toBe("r.json: invalid JSON: Unexpected token ']' at line 1, column 29");
    expect(refusal('{"config": {}, "suites": []} trailing')).toBe('r.json: invalid JSON: Unexpected non-whitespace character after JSON at line 1, column 30');
    expect(refusal('{"config": {},\n"suites": [{"title": "a", "specs": [')).toBe('r.json: invalid JSON: the file ends before the JSON is complete (truncated?) at line 2');
  });

  it('names a missing or wrong field, an empty file and a file that is not an object', () => {
    expect(refusal('   \n ')).toBe('r.json: the file is empty');
    expect(refusal('[1, 2]')).toBe('r.json: not a Playwright JSON report: expected a JSON object at the top level, found an array');
    expect(refusal('{"suites": []}')).toBe('r.json: not a Playwright JSON report: the field "config" is missing');
    expect(refusal('{"config": {}}')).toBe('r.json: not a Playwright JSON report: the field "suites" is missing');
    expect(refusal('{"config": {}, "suites": {}}')).toBe('r.json: not a Playwright JSON report: "suites" must be an array, found an object');
    expect(refusal('{"config": {}, "suites": [], "suites": []}')).toBe('r.json: not a Playwright JSON report: the field "suites" appears twice');
    expect(refusal('{"config": {}, "suites": [{"title": "a", "specs": [{"title": 1}]}]}')).toBe('r.json: not a Playwright JSON report: the field "suites[0].specs[0].title" is missing');
    expect(refusal('{"config": {}, "suites": [], "stats": {"duration": "long"}}')).toBe('r.json: not a Playwright JSON report: "stats.duration" must be a number, found a string');
  });

  it('a suite nested past the limit is refused before anything walks it', () => {
    const deep = `{"config":{},"suites":[${'{"title":"d","suites":['.repeat(5000)}{}${']}'.repeat(5000)}]}`;
    expect(refusal(deep, 1 << 16)).toMatch(/^r\.json: the report nests too deeply: "suites\[0\]\.suites\[0\].*" nests suites deeper than the limit of 100 levels$/);
  });
});
