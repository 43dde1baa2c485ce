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
    expect(refused(spec({ line: 'x' }))).toBe('"suites[0].specs[0].line" must be a whole number, found a string');
    expect(refused(spec({}, { duration: 'abc' }))).toBe('"suites[0].specs[0].tests[0].results[0].duration" must be a number, found a string');
    expect(refused(spec({}, { error: { message: 5 } }))).toBe('"suites[0].specs[0].tests[0].results[0].error.message" must be a string, found a number');
    expect(refused(JSON.stringify({ config: {}, suites: [], errors: [{ message: 5 }] }))).toBe('"errors[0].message" must be a string, found a number');
  });

  it('accepts a report with lines printed before it (stdout capture)', () => {
    expect(parseReportText(`[WebServer] listening on 3000\n${text}\n`, 'r.json')).toEqual(minimal);
  });
});

describe('parseReport: nesting past the documented limits is refused, never a stack overflow', () => {
  const spec = (result: object = {}, test: object = {}) => ({ title: 't', file: 'a.spec.ts', tests: [{ projectName: 'x', results: [{ status: 'passed', duration: 1, ...result }], ...test }] });
  /** Nested `depth` levels through `key`, built as text: the value itself would overflow JSON.stringify. */
  const nested = (depth: number, open: string, close: string, inner = '{}') => `${open.repeat(depth)}${inner}${close.repeat(depth)}`;

  it('suites nested 3,000 deep name the path and the limit of 100', () => {
    const suites = nested(2999, '{"title":"d","specs":[],"suites":[', ']}', '{"title":"d","specs":[]}');
    const message = problem(() => parseReportText(`{"config":{},"suites":[${suites}]}`, 'deep.json'));
    expect(message).toMatch(/^deep\.json: the report nests too deeply: "suites\[0\]\.suites\[0\]\.suites\[0\].*….*suites\[0\]" nests suites deeper than the limit of 100 levels$/);
  });

  it('100 nested suites are fine, 101 are not', () => {
    const report = (depth: number) => `{"config":{},"suites":[${nested(depth - 1, '{"title":"d","specs":[],"suites":[', ']}', `{"title":"d","specs":[${JSON.stringify(spec())}]}`)}]}`;
    expect(parseReportText(report(100), 'ok.json').suites).toHaveLength(1);
    expect(problem(() => parseReportText(report(101), 'deep.json'))).toMatch(/nests suites deeper than the limit of 100 levels$/);
  });

  it('steps nested 5,000 deep', () => {
    const steps = nested(5000, '[{"title":"s","duration":1,"steps":', '}]', '[]');
    const text = `{"config":{},"suites":[{"title":"a","specs":[${JSON.stringify(spec()).replace('"duration":1}', `"duration":1,"steps":${steps}}`)}]}]}`;
    expect(problem(() => parseReportText(text, 'steps.json'))).toMatch(
      /^steps\.json: the report nests too deeply: "suites\[0\]\.specs\[0\]\.tests\[0\]\.results\[0\]\.steps\[0\]….*steps\[0\]" nests steps deeper than the limit of 100 levels$/,
    );
  });

  it('deep arrays in config.metadata and in annotations', () => {
    const metadata = `{"config":{"metadata":{"ci":${nested(100_000, '[', ']', '1')}}},"suites":[]}`;
    expect(problem(() => parseReportText(metadata, 'meta.json'))).toMatch(/^meta\.json: the report nests too deeply: "config\.metadata\.ci\[0\].*\[0\]" nests values deeper than the limit of 32 levels$/);
    const annotation = { config: {}, suites: [{ title: 'a', specs: [spec({}, { annotations: [{ type: 'issue', extra: 'X' }] })] }] };
    const text = JSON.stringify(annotation).replace('"X"', nested(40, '{"a":', '}', '1'));
    expect(problem(() => parseReportText(text, 'ann.json'))).toMatch(/^ann\.json: the report nests too deeply: "suites\[0\]\.specs\[0\]\.tests\[0\]\.annotations\[0\]\.extra\.a.*" nests values deeper than the limit of 32 levels$/);
  });

  it('values stored or shown as text must be text', () => {
    const refused = (report: object) => problem(() => parseReportText(JSON.stringify(report), 'r.json')).replace('r.json: not a Playwright JSON report: ', '');
    expect(refused({ config: { shard: { current: 'x', total: 2 } }, suites: [] })).toBe('"config.shard.current" must be a whole number, found a string');
    expect(refused({ config: {}, suites: [{ title: 'a', specs: [{ ...spec(), column: 5e-324 }] }] })).toBe('"suites[0].specs[0].column" must be a whole number, found a number');
    expect(refused({ config: { projects: [{ name: ['chromium'] }] }, suites: [] })).toBe('"config.projects[0].name" must be a string, found an array');
    expect(refused({ config: {}, suites: [{ title: 'a', specs: [{ ...spec(), tags: [{ deep: 1 }] }] }] })).toBe('"suites[0].specs[0].tags[0]" must be a string, found an object');
    expect(refused({ config: {}, suites: [{ title: 'a', specs: [spec({ stdout: [{ text: [1] }] })] }] })).toBe('"suites[0].specs[0].tests[0].results[0].stdout[0].text" must be a string, found an array');
    expect(refused({ config: {}, suites: [{ title: 'a', specs: [spec({ error: { message: 'm', location: { file: {} } } })] }] })).toBe(
      '"suites[0].specs[0].tests[0].results[0].error.location.file" must be a string, found an object',
    );
    expect(refused({ config: {}, suites: [], stats: { startTime: [] } })).toBe('"stats.startTime" must be a string, found an array');
  });
});
