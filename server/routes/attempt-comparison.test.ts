import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AttemptComparisonResponse } from '../../core/api/attempt-comparison.js';
import type { UploadDetailResponse } from '../../core/api/uploads.js';
import { buildTestApp, signIn, type Signed, type TestApp } from '../../fixtures/testing/app.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';
import { FolderEvidenceStore } from '../store/evidence/folder-store.js';

// The real report of fixtures/evidence-suite with its traces: one test always fails, one passes on its retry.
const EVIDENCE = new URL('../../fixtures/reports/evidence/', import.meta.url);
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let t: TestApp;
let temp: ReturnType<typeof makeTempDir>;
let max: Signed;

beforeEach(async () => {
  temp = makeTempDir('flakeboard-compare-route-');
  t = await buildTestApp({ evidence: new FolderEvidenceStore(join(temp.dir, 'evidence')) });
  max = await signIn(t.app, 'max');
});
afterEach(async () => {
  await t.close();
  temp.cleanup();
});

type Attachment = { name: string; contentType: string; path?: string; sha256?: string };
type Step = { title: string; category: string; duration: number; error?: { message: string } };
type Report = { suites: Array<{ specs: Array<{ title: string; tests: Array<{ results: Array<{ attachments: Attachment[]; steps?: Step[] }> }> }> }> };

/**
 * Uploads the report, its traces sent by hash (or, with `traces: false`, named but never sent),
 * each attempt with `steps` when given; the results by test title.
 */
async function upload(options: { traces: boolean; steps?: (title: string, retry: number) => Step[]; edit?: (report: Report) => void }): Promise<Map<string, number>> {
  const report = JSON.parse(readFileSync(new URL('report.json', EVIDENCE), 'utf8')) as Report;
  options.edit?.(report);
  for (const spec of report.suites[0]!.specs) {
    for (const [retry, result] of spec.tests[0]!.results.entries()) {
      if (options.steps) result.steps = options.steps(spec.title, retry);
      result.attachments = result.attachments.filter((a) => a.name === 'trace');
      for (const attachment of result.attachments) {
        const bytes = readFileSync(new URL(`output/${attachment.path!.split('/output/')[1]}`, EVIDENCE));
        attachment.sha256 = sha(bytes);
        delete attachment.path;
        if (options.traces) {
          const put = await t.app.inject({ method: 'PUT', url: `/api/evidence/${attachment.sha256}`, headers: { ...max.headers, 'content-type': 'application/zip' }, payload: bytes });
          expect(put.statusCode).toBe(201);
        }
      }
    }
  }
  const res = await t.app.inject({ method: 'POST', url: '/api/upload', headers: max.headers, payload: { testResults: report } });
  expect(res.statusCode).toBe(200);
  const detail = (await get(`/api/uploads/${res.json().runId}`)).json() as UploadDetailResponse;
  return new Map(detail.testResults.map((row) => [row.test_title, row.id]));
}

const get = (path: string) => t.app.inject({ method: 'GET', url: path, headers: { authorization: max.headers.authorization! } });

describe('GET /api/evidence/compare', () => {
  it('lays the failing attempt beside its passing retry, read from both traces', async () => {
    const ids = await upload({ traces: true });
    const res = await get(`/api/evidence/compare?result=${ids.get('keeps the total without a code')}`);
    expect(res.statusCode).toBe(200);
    const body = res.json() as AttemptComparisonResponse;
    expect(body).toMatchObject({ failing: { retry: 0, status: 'failed' }, passing: { retry: 1, status: 'passed' }, partner: 'retry', tracesMissing: false, note: null });
    expect(body.failing.traceSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(body.comparison!.partedAt).toMatchObject({ reason: 'only-failing', failing: { title: 'Click', locator: "getByRole('button', { name: 'Remove code' })" } });
    expect(body.comparison!.consoleErrorsOnlyFailing).toEqual([]);
  });

  it('without traces compares the report’s steps and says the traces would tell more', async () => {
    // The steps a reporter records (this report has none): the same hook, then a click only the first attempt made.
    const step = (title: string, duration: number, error?: string): Step => ({ title, category: 'pw:api', duration, ...(error ? { error: { message: error } } : {}) });
    const ids = await upload({
      traces: false,
      steps: (_title, retry) =>
        retry === 0
          ? [step('Set content', 68), step('Click', 1019, 'TimeoutError: locator.click: Timeout 1000ms exceeded.')]
          : [step('Set content', 72), step('Expect "toHaveText"', 132)],
    });
    const body = (await get(`/api/evidence/compare?result=${ids.get('keeps the total without a code')}`)).json() as AttemptComparisonResponse;
    expect(body.tracesMissing).toBe(true);
    expect(body.note).toMatch(/traces of both attempts would tell more/);
    expect(body.failing.traceSha256).toBeNull();
    expect(body.comparison!.aligned.map(({ failing, passing }) => [failing?.title ?? null, passing?.title ?? null])).toEqual([
      ['Set content', 'Set content'],
      ['Click', null],
      [null, 'Expect "toHaveText"'],
    ]);
    expect(body.comparison!.partedAt).toMatchObject({ index: 1, reason: 'only-failing', failing: { title: 'Click', error: 'TimeoutError: locator.click: Timeout 1000ms exceeded.' } });
    expect(body.comparison!.slowerActions).toEqual([{ title: 'Set content', locator: null, failingMs: 68, passingMs: 72 }]);
  });

  it('a test without a passing retry is laid beside its newest passing result on the same browser', async () => {
    const ids = await upload({ traces: true });
    // Another run in which the discount test passed at once (its first attempt only, without error).
    const later = await upload({
      traces: true,
      edit: (report) => {
        const results = report.suites[0]!.specs[0]!.tests[0]!.results as Array<Record<string, unknown>>;
        results.splice(1);
        Object.assign(results[0]!, { status: 'passed', errors: [] });
        delete results[0]!.error;
        (report.suites[0]!.specs[0] as Record<string, unknown>).ok = true;
      },
    });
    const body = (await get(`/api/evidence/compare?result=${ids.get('applies a discount code')}`)).json() as AttemptComparisonResponse;
    expect(body).toMatchObject({ partner: 'earlier-pass', passing: { resultId: later.get('applies a discount code'), retry: 0, status: 'passed' }, tracesMissing: false });
    // The same trace on both sides: nothing only the failing attempt had.
    expect(body.comparison!.requestsOnlyFailing).toEqual([]);
  });

  it('a test that never passed has no partner; bad ids are refused by name', async () => {
    const ids = await upload({ traces: true });
    const never = (await get(`/api/evidence/compare?result=${ids.get('applies a discount code')}`)).json() as AttemptComparisonResponse;
    expect(never).toMatchObject({ failing: { retry: 0 }, passing: null, partner: null, comparison: null });
    const flaky = ids.get('keeps the total without a code')!;
    expect((await get(`/api/evidence/compare?result=${flaky}&retry=1`)).json().error).toBe(`Result ${flaky} has no failed attempt 1 (retries count from 0)`);
    expect((await get('/api/evidence/compare?result=abc')).statusCode).toBe(400);
    expect((await get('/api/evidence/compare')).json().error).toMatch(/^result must be the id of a test result/);
    expect((await get('/api/evidence/compare?result=999999')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/evidence/compare?result=${flaky}` })).statusCode).toBe(401);
  });
});
