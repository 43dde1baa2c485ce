/**
 * POST /api/ai-analysis reads the failing attempt's trace from the evidence store: a real report
 * with real traces (fixtures/reports/evidence) imported with its evidence into a real SQLite
 * file and a folder store.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AiAnalysisResult } from '../../core/api/ai.js';
import { buildTestApp, signIn, type Signed, type TestApp } from '../../fixtures/testing/app.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';
import { loadTraces } from '../ai/load-traces.js';
import { collectImportEvidence, storeBlobs } from '../evidence/collect-import.js';
import { ingestBytes } from '../ingest.js';
import { FolderEvidenceStore } from '../store/evidence/folder-store.js';

const REPORT = fileURLToPath(new URL('../../fixtures/reports/evidence/report.json', import.meta.url));

let temp: ReturnType<typeof makeTempDir>;
let evidence: FolderEvidenceStore;
let t: TestApp;
let max: Signed;
let browser: string;

beforeEach(async () => {
  temp = makeTempDir('flakeboard-ai-traces-');
  evidence = new FolderEvidenceStore(join(temp.dir, 'evidence'));
  t = await buildTestApp({ evidence });
  max = await signIn(t.app, 'max');
  const collected = await collectImportEvidence(REPORT, REPORT, { mode: 'failures', maxBytes: 50 * 1024 * 1024, keep: storeBlobs(t.store, evidence), onSkip: () => {} });
  await ingestBytes(t.store, readFileSync(REPORT), { fileName: REPORT, approve: true, evidence: collected.resolve });
  browser = (await t.store.db.selectFrom('results').select('browser').executeTakeFirstOrThrow()).browser;
});

afterEach(async () => {
  await t.close();
  temp.cleanup();
});

const ask = async (title: string): Promise<AiAnalysisResult> => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/ai-analysis',
    headers: max.headers,
    payload: { testSummary: { testTitle: title, browser, passRate: 0, totalRuns: 1, failedRuns: 1 }, recentResults: [{ status: 'failed', testFile: 'checkout.spec.ts' }] },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as AiAnalysisResult;
};

describe('POST /api/ai-analysis with stored traces', () => {
  it("answers with what the failing attempt's trace shows: the failing action, its locator, the failed requests", async () => {
    const result = await ask('applies a discount code');
    const claims = result.evidence!.map((e) => e.claim);
    expect(claims.some((c) => /the action that failed was Expect "toHaveText" on locator\('#total'\)/.test(c))).toBe(true);
    expect(claims.some((c) => c.includes('GET shop.test/api/discount answered HTTP 404'))).toBe(true);
    expect(result.stability).toBe('steady');
  });

  it('points each trace claim at the stored trace it read, at its moment', async () => {
    const result = await ask('applies a discount code');
    const stored = await t.store.db.selectFrom('attachments').select('sha256').where('kind', '=', 'trace').execute();
    const action = result.evidence.find((e) => e.claim.includes('the action that failed was'))!;
    expect(stored.map((r) => r.sha256)).toContain(action.trace!.sha256);
    expect(action.trace).toMatchObject({ failedAction: true, shownIn: 'actions', atMs: expect.any(Number) });
    const request = result.evidence.find((e) => e.claim.includes('answered HTTP 404'))!;
    expect(request.trace).toMatchObject({ sha256: action.trace!.sha256, shownIn: 'network', action: 'GET shop.test/api/discount' });
    expect(result.evidence.find((e) => e.claim.startsWith('Failed '))!.trace).toBeUndefined();
  });

  it('loads the first failing attempt and the passing retry, and nothing over the cap', async () => {
    const traces = await loadTraces(t.store, evidence, { title: 'keeps the total without a code', file: 'checkout.spec.ts', browser });
    expect(traces.failing?.byteLength).toBeGreaterThan(0);
    expect(traces.passing?.byteLength).toBeGreaterThan(0);
    expect(traces.failing).not.toEqual(traces.passing);
    expect(await loadTraces(t.store, evidence, { title: 'keeps the total without a code', file: 'checkout.spec.ts', browser }, 100)).toEqual({});
    expect(await loadTraces(t.store, evidence, { title: 'no such test', file: null, browser })).toEqual({});
  });
});
