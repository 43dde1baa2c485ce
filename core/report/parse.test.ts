import { describe, expect, it } from 'vitest';
import { decodeReportBytes } from './decode.js';
import { InvalidReportError, parseReportBytes, parseReportText } from './parse.js';

const minimal = { config: { projects: [] }, suites: [], errors: [] };
const text = JSON.stringify(minimal, null, 2);

function problem(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidReportError);
    return (error as Error).message;
  }
  throw new Error('expected the report to be refused');
}

describe('decodeReportBytes', () => {
  it('reads UTF-8 with a BOM, UTF-16LE and UTF-16BE with BOMs, and UTF-16 without one', () => {
    const utf8 = new TextEncoder().encode(text);
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text.replace(/\n/g, '\r\n'), 'utf16le')]);
    const be = Buffer.from(le.subarray(2)).swap16();
    expect(decodeReportBytes(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8]))).toBe(text);
    expect(JSON.parse(decodeReportBytes(le))).toEqual(minimal);
    expect(JSON.parse(decodeReportBytes(Buffer.concat([Buffer.from([0xfe, 0xff]), be])))).toEqual(minimal);
    expect(JSON.parse(decodeReportBytes(Buffer.from(text, 'utf16le')))).toEqual(minimal);
  });
});

describe('parseReport: bad input names the file and the problem', () => {
  it('an empty file', () => {
    expect(problem(() => parseReportBytes(new Uint8Array(), 'r.json'))).toBe('r.json: the file is empty');
    expect(problem(() => parseReportText('  \n', 'r.json'))).toBe('r.json: the file is empty');
  });

  it('not JSON, with the line and column', () => {
    expect(problem(() => parseReportText('{\n  "config": {},\n  oops\n}', 'r.json'))).toMatch(/^r\.json: invalid JSON: .* at line 3, column 3$/);
  });

  it('not JSON, where the engine quotes an excerpt that holds quotes itself', () => {
    expect(problem(() => parseReportText('{"config": {"projects": [}', 'r.json'))).toMatch(/^r\.json: invalid JSON: Unexpected token '\}'( at line 1, column 26)?$/);
  });

  it('a truncated file', () => {
    expect(problem(() => parseReportText(text.slice(0, 30), 'r.json'))).toMatch(/^r\.json: invalid JSON: the file ends before the JSON is complete \(truncated\?\)/);
  });

  it('JSON that is not a Playwright report says which field is missing', () => {
    expect(problem(() => parseReportText('[1,2]', 'r.json'))).toBe('r.json: not a Playwright JSON report: expected a JSON object at the top level, found an array');
    expect(problem(() => parseReportText('{"suites": []}', 'r.json'))).toBe('r.json: not a Playwright JSON report: the field "config" is missing');
    expect(problem(() => parseReportText('{"config": {}}', 'r.json'))).toBe('r.json: not a Playwright JSON report: the field "suites" is missing');
    const noResults = { config: {}, suites: [{ title: 'a', file: 'a', specs: [{ title: 't', file: 'a', tests: [{ projectName: 'x' }] }] }] };
    expect(problem(() => parseReportText(JSON.stringify(noResults), 'r.json'))).toBe('r.json: not a Playwright JSON report: the field "suites[0].specs[0].tests[0].results" is missing');
  });

  it('fields the importer reads must have the right type', () => {
    const spec = (extra: object, result: object = {}) =>
      JSON.stringify({ config: {}, suites: [{ title: 'a', file: 'a', specs: [{ title: 't', file: 'a.spec.ts', line: 1, column: 1, ...extra, tests: [{ projectName: 'x', results: [{ status: 'passed', duration: 1, ...result }] }] }] }] });
    const refused = (text: string) => problem(() => parseReportText(text, 'r.json')).replace('r.json: not a Playwright JSON report: ', '');
    expect(refused(spec({ file: undefined }))).toBe('the field "suites[0].specs[0].file" is missing');
    expect(refused(spec({ line: 'x' }))).toBe('"suites[0].specs[0].line" must be a number, found a string');
    expect(refused(spec({}, { duration: 'abc' }))).toBe('"suites[0].specs[0].tests[0].results[0].duration" must be a number, found a string');
    expect(refused(spec({}, { error: { message: 5 } }))).toBe('"suites[0].specs[0].tests[0].results[0].error.message" must be a string, found a number');
    expect(refused(JSON.stringify({ config: {}, suites: [], errors: [{ message: 5 }] }))).toBe('"errors[0].message" must be a string, found a number');
  });

  it('accepts a report with lines printed before it (stdout capture)', () => {
    expect(parseReportText(`[WebServer] listening on 3000\n${text}\n`, 'r.json')).toEqual(minimal);
  });
});
