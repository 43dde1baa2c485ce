import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
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
async function upload(options: {
  traces: boolean;
  steps?: (title: string, retry: number) => Step[];
  edit?: (report: Report) => void;
  metadata?: Record<string, string>;
  /** Changes each trace's bytes before they are sent. */
  trace?: (zip: Uint8Array) => Uint8Array;
}): Promise<Map<string, number>> {
  const report = JSON.parse(readFileSync(new URL('report.json', EVIDENCE), 'utf8')) as Report;
  options.edit?.(report);
  for (const spec of report.suites[0]!.specs) {
    for (const [retry, result] of spec.tests[0]!.results.entries()) {
      if (options.steps) result.steps = options.steps(spec.title, retry);
      result.attachments = result.attachments.filter((a) => a.name === 'trace');
      for (const attachment of result.attachments) {
        const read = readFileSync(new URL(`output/${attachment.path!.split('/output/')[1]}`, EVIDENCE));
        const bytes = options.trace ? Buffer.from(options.trace(read)) : read;
        attachment.sha256 = sha(bytes);
        delete attachment.path;
        if (options.traces) {
          const put = await t.app.inject({ method: 'PUT', url: `/api/evidence/${attachment.sha256}`, headers: { ...max.headers, 'content-type': 'application/zip' }, payload: bytes });
          expect(put.statusCode).toBe(201);
        }
      }
    }
  }
  const res = await t.app.inject({ method: 'POST', url: '/api/upload', headers: max.headers, payload: { testResults: report, metadata: options.metadata } });
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

  it('the partner is the passing retry of the same run, said in words, with the frame of each attempt where they parted', async () => {
    const ids = await upload({ traces: true });
    const body = (await get(`/api/evidence/compare?result=${ids.get('keeps the total without a code')}`)).json() as AttemptComparisonResponse;
    expect(body).toMatchObject({ partner: 'retry', partnerText: 'Compared with the passing retry in the same run', framesNote: null });
    // The failing attempt where its click timed out; the retry, which never clicked, where "Set content" ended.
    expect(body.frames!.failing).toMatchObject({ action: 'Click', atMs: 177 });
    expect(body.frames!.passing).toMatchObject({ action: 'Set content', atMs: 116 });
    expect(body.frames!.failing!.url).toContain('name=screencast%2Fpage%40246692ad75420053afd7875a0a70cdba-1795717949534.jpeg');
    for (const side of ['failing', 'passing'] as const) {
      const res = await get(body.frames![side]!.url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect([...res.rawPayload.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
      // The same bytes the trace holds under that name.
      const zip = unzipSync(readFileSync(new URL(`output/checkout-keeps-the-total-without-a-code${side === 'passing' ? '-retry1' : ''}/trace.zip`, EVIDENCE)));
      expect(Buffer.compare(res.rawPayload, Buffer.from(zip[decodeURIComponent(body.frames![side]!.url.split('name=')[1]!)]!))).toBe(0);
      // Not without a session, whatever the name.
      expect((await t.app.inject({ method: 'GET', url: body.frames![side]!.url })).statusCode).toBe(401);
    }
  });

  it('traces recorded without screenshots: no frames, said in one line', async () => {
    // The real traces with their screencast frames taken out, as Playwright writes them with `screenshots: false`.
    const withoutFrames = (zip: Uint8Array) => {
      const files = unzipSync(zip);
      for (const name of Object.keys(files)) {
        if (name.startsWith('screencast/')) delete files[name];
        else if (name.endsWith('.trace')) files[name] = strToU8(strFromU8(files[name]!).split('\n').filter((line) => !line.includes('"screencast-frame"')).join('\n'));
      }
      return zipSync(files);
    };
    const ids = await upload({ traces: true, trace: withoutFrames });
    const body = (await get(`/api/evidence/compare?result=${ids.get('keeps the total without a code')}`)).json() as AttemptComparisonResponse;
    expect(body).toMatchObject({ tracesMissing: false, partner: 'retry', frames: { failing: null, passing: null }, framesNote: 'The traces were recorded without screenshots: no frames to show where the attempts parted' });
    expect(body.comparison!.partedAt).toMatchObject({ reason: 'only-failing', failing: { title: 'Click' } });
  });

  it('the frame route serves only JPEG frames of the compared traces', async () => {
    const ids = await upload({ traces: true });
    const base = `/api/evidence/compare/frame?result=${ids.get('keeps the total without a code')}`;
    const ask = async (query: string) => {
      const res = await get(`${base}${query}`);
      return [res.statusCode, res.json().error as string] as const;
    };
    // The trace's own event file, a resource that is not an image, a path climbing out: refused by name, nothing read.
    expect(await ask('&side=failing&name=test.trace')).toEqual([400, 'name must be a screencast frame of the trace, as the comparison gave it']);
    expect(await ask('&side=failing&name=screencast%2F..%2Ftest.trace')).toEqual([400, 'name must be a screencast frame of the trace, as the comparison gave it']);
    expect(await ask('&side=sideways&name=screencast%2Fx.jpeg')).toEqual([400, 'side must be failing or passing']);
    expect(await ask('&side=failing&name=screencast%2Fpage%40nothing-1.jpeg')).toEqual([404, 'The trace of the failing attempt has no frame screencast/page@nothing-1.jpeg']);
    // A frame of the passing trace is not in the failing one.
    expect((await ask('&side=failing&name=screencast%2Fpage%4065c11473d933652374f8fa4ea01c41bb-1795717952303.jpeg'))[0]).toBe(404);
    expect((await get(`/api/evidence/compare/frame?result=abc&side=failing&name=x`)).statusCode).toBe(400);
  });

  it('without a passing retry: a passing run on the same commit first, else the nearest passing run in time', async () => {
    const HOUR = 3_600_000;
    /** The report moved `hours` later on `commit`; with `passes`, the discount test passes at once. */
    const run = (commit: string, hours: number, passes: boolean) =>
      upload({
        traces: true,
        metadata: { gitCommit: commit },
        edit: (report) => {
          const shift = (iso: string) => new Date(Date.parse(iso) + hours * HOUR).toISOString();
          const withTime = report as unknown as { stats: { startTime: string } };
          withTime.stats.startTime = shift(withTime.stats.startTime);
          for (const spec of report.suites[0]!.specs) for (const r of spec.tests[0]!.results as unknown as Array<{ startTime: string }>) r.startTime = shift(r.startTime);
          if (!passes) return;
          const results = report.suites[0]!.specs[0]!.tests[0]!.results as Array<Record<string, unknown>>;
          results.splice(1);
          Object.assign(results[0]!, { status: 'passed', errors: [] });
          delete results[0]!.error;
          (report.suites[0]!.specs[0] as Record<string, unknown>).ok = true;
        },
      });
    const failed = await run('aaaaaaa1111111', 0, false);
    const nearOther = await run('bbbbbbb2222222', 1, true);
    const sameCommitLater = await run('aaaaaaa1111111', 5 * 24, true);
    const TITLE = 'applies a discount code';
    const sameCommit = (await get(`/api/evidence/compare?result=${failed.get(TITLE)}`)).json() as AttemptComparisonResponse;
    // The run an hour later is nearer, but the one on the same commit five days later comes first.
    expect(sameCommit).toMatchObject({ partner: 'same-commit', passing: { resultId: sameCommitLater.get(TITLE), retry: 0, status: 'passed', gitCommit: 'aaaaaaa1111111' } });
    expect(sameCommit.partnerText).toBe(`Compared with a passing run on the same commit aaaaaaa: run #${sameCommit.passing!.runId} on 1 Dec 2026`);
    // The same trace on both sides: nothing only the failing attempt had, nowhere they parted, no frames.
    expect(sameCommit.comparison!.requestsOnlyFailing).toEqual([]);
    expect(sameCommit).toMatchObject({ frames: null, framesNote: null });

    // A failure on a commit no passing run has: the passing run nearest in time, before or after.
    const lone = await run('ccccccc3333333', 3 * 24, false);
    const nearest = (await get(`/api/evidence/compare?result=${lone.get(TITLE)}`)).json() as AttemptComparisonResponse;
    expect(nearest).toMatchObject({ partner: 'nearest', passing: { resultId: sameCommitLater.get(TITLE), gitCommit: 'aaaaaaa1111111' } });
    expect(nearest.partnerText).toBe(`Compared with the nearest passing run in time, run #${nearest.passing!.runId} on 1 Dec 2026`);
    const early = await run('ddddddd4444444', 3, false);
    const nearestEarlier = (await get(`/api/evidence/compare?result=${early.get(TITLE)}`)).json() as AttemptComparisonResponse;
    expect(nearestEarlier).toMatchObject({ partner: 'nearest', passing: { resultId: nearOther.get(TITLE), gitCommit: 'bbbbbbb2222222' } });
    expect(nearestEarlier.partnerText).toBe(`Compared with the nearest passing run in time, run #${nearestEarlier.passing!.runId} on 26 Nov 2026`);
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
