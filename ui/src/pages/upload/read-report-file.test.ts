import { describe, expect, it } from 'vitest';
import { analyseReportBytes, isJsonFile, testCount } from './read-report-file.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const report = (extra: object = {}) => ({
  config: { projects: [{ name: 'Desktop Safari', use: { browserName: 'webkit' } }] },
  suites: [
    {
      title: 'a.spec.ts',
      file: 'a.spec.ts',
      specs: [
        { title: 'passes', file: 'a.spec.ts', line: 1, column: 1, tests: [{ projectName: 'Desktop Safari', expectedStatus: 'passed', results: [{ status: 'passed', duration: 5, retry: 0 }] }] },
        { title: 'fails', file: 'a.spec.ts', line: 2, column: 1, tests: [{ projectName: 'Desktop Safari', expectedStatus: 'passed', results: [{ status: 'timedOut', duration: 5, retry: 0 }] }] },
        { title: 'skips', file: 'a.spec.ts', line: 3, column: 1, tests: [{ projectName: 'Desktop Safari', expectedStatus: 'skipped', results: [{ status: 'skipped', duration: 0, retry: 0 }] }] },
      ],
    },
  ],
  ...extra,
});

describe('isJsonFile', () => {
  it('accepts a .json name or the JSON type, nothing else', () => {
    expect(isJsonFile({ name: 'report.json', type: '' })).toBe(true);
    expect(isJsonFile({ name: 'REPORT.JSON', type: '' })).toBe(true);
    expect(isJsonFile({ name: 'report', type: 'application/json' })).toBe(true);
    expect(isJsonFile({ name: 'report.txt', type: 'text/plain' })).toBe(false);
    expect(isJsonFile({ name: 'report.json.gz', type: 'application/gzip' })).toBe(false);
  });
});

describe('analyseReportBytes', () => {
  it('detects the browser and counts like the importer: timedOut is failed, skipped is neither', () => {
    const result = analyseReportBytes(bytes(JSON.stringify(report())), 'r.json');
    expect(result).toMatchObject({ kind: 'report', browser: 'webkit', project: 'Desktop Safari', tests: 3, passed: 1, failed: 1 });
  });

  it('uses stats.expected as the test count when the report has it', () => {
    const result = analyseReportBytes(bytes(JSON.stringify(report({ stats: { expected: 7 } }))), 'r.json');
    expect(result).toMatchObject({ kind: 'report', tests: 7, passed: 1, failed: 1 });
    expect(testCount({ stats: { expected: 0 } }, 4)).toBe(4);
    expect(testCount({}, 4)).toBe(4);
  });

  it('reads a UTF-16 report with a BOM (PowerShell redirection)', () => {
    const text = JSON.stringify(report());
    const utf16 = new Uint8Array(2 + text.length * 2);
    utf16.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) utf16[2 + i * 2] = text.charCodeAt(i);
    expect(analyseReportBytes(utf16, 'ps.json')).toMatchObject({ kind: 'report', tests: 3 });
  });

  it('several browsers make a Multi-browser project; chrome and safari are normalised', () => {
    const value = report();
    value.config.projects = [
      { name: 'Desktop Chrome', use: { browserName: 'chrome' } },
      { name: 'Desktop Safari', use: { browserName: 'safari' } },
    ];
    const spec = value.suites[0]!.specs[0]!;
    spec.tests = [
      { projectName: 'Desktop Chrome', expectedStatus: 'passed', results: [{ status: 'passed', duration: 5, retry: 0 }] },
      { projectName: 'Desktop Safari', expectedStatus: 'passed', results: [{ status: 'passed', duration: 5, retry: 0 }] },
    ];
    const result = analyseReportBytes(bytes(JSON.stringify(value)), 'multi.json');
    expect(result).toMatchObject({ kind: 'report', browser: 'chromium, webkit', project: 'Multi-browser', tests: 4, passed: 2, failed: 1 });
  });

  it("gives the documented per-file error (docs/screens.md#upload) for invalid JSON, with the reason and where", () => {
    const result = analyseReportBytes(bytes('{"config": {,}'), 'broken.json');
    expect(result.kind).toBe('invalid');
    expect(result.kind === 'invalid' && result.error).toMatch(/^Invalid JSON in broken\.json: .+ at line 1, column \d+$/);
    expect(analyseReportBytes(bytes('  '), 'empty.json')).toEqual({ kind: 'invalid', error: 'Invalid JSON in empty.json: the file is empty' });
  });

  it('keeps valid JSON that is not a report, for the server to judge', () => {
    const result = analyseReportBytes(bytes('{"hello": "world"}'), 'other.json');
    expect(result).toEqual({ kind: 'unrecognised', value: { hello: 'world' }, problem: 'not a Playwright JSON report: the field "config" is missing' });
  });
});
