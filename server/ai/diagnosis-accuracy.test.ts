/**
 * How often the AI analysis names the true cause (issue 14): the diagnosis corpus's real
 * reports imported with the real ingest, each failing or flaky test on each project asked of
 * POST /api/ai-analysis the way the detail dialog asks, and the answers scored against
 * fixtures/reports/diagnosis/truth.json. `npm run diagnosis:accuracy` prints the table.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOW_CONFIDENCE, type AiAnalysisRequest, type AiAnalysisResult } from '../../core/api/ai.js';
import type { TestResultDetail } from '../../core/api/analytics.js';
import { buildTestApp, signIn, type Signed, type TestApp } from '../../fixtures/testing/app.js';
import { accuracyOf, accuracyTable, scoreAnswer, type Scored } from '../../fixtures/testing/diagnosis-score.js';
import { DIAGNOSIS_REPORTS_DIR, loadTruth, truthKey } from '../../fixtures/testing/diagnosis-truth.js';
import { aiAnalysisRequest } from '../../ui/src/pages/flaky/ai-request.js';
import { ingestBytes } from '../ingest.js';

// The AI route limits calls only while a model is configured; the clock still moves past its window.
let clock = Date.now();
let t: TestApp;
let who: Signed;
/** The same questions put to an empty store: only the rows the dialog sends (thin evidence). */
let bare: TestApp;
let bareWho: Signed;
const scored: Scored[] = [];
const thin: Scored[] = [];
const asked = new Set<string>();
const unlabelled: string[] = [];
const rootCauses = new Map<string, string>();
const engines: string[] = [];

beforeAll(async () => {
  // The local engine is what is measured: no model, whatever the environment says.
  for (const name of Object.keys(process.env)) if (name.startsWith('FLAKEBOARD_AI_')) delete process.env[name];
  t = await buildTestApp({ now: () => clock });
  who = await signIn(t.app, 'max');
  bare = await buildTestApp({ now: () => clock });
  bareWho = await signIn(bare.app, 'max');
  const reports = readdirSync(DIAGNOSIS_REPORTS_DIR).filter((f) => /^run-\d+\.json$/.test(f)).sort();
  for (const file of reports) ingestBytes(t.store, readFileSync(join(DIAGNOSIS_REPORTS_DIR, file)), { fileName: file, approve: true });

  const truth = new Map(loadTruth().map((e) => [truthKey(e), e]));
  // What the Flaky Tests page would offer for analysis: every test and project that failed or was flaky.
  const pairs = await t.store.db
    .selectFrom('results')
    .innerJoin('tests', 'tests.id', 'results.test_id')
    .select(['tests.title', 'tests.file', 'results.browser'])
    .where('results.outcome', 'in', ['unexpected', 'flaky'])
    .distinct()
    .orderBy('tests.file')
    .orderBy('tests.title')
    .orderBy('results.browser')
    .execute();
  for (const [i, p] of pairs.entries()) {
    const key = truthKey({ file: p.file, title: p.title, project: p.browser });
    asked.add(key);
    const entry = truth.get(key);
    if (!entry) {
      unlabelled.push(key);
      continue;
    }
    if (i > 0 && i % 15 === 0) clock += 61_000;
    const { result, request } = await analyse(p.title, p.browser);
    scored.push(scoreAnswer(entry, result));
    thin.push(scoreAnswer(entry, await ask(bare, bareWho, request)));
    rootCauses.set(key, result.rootCause);
    engines.push(result.engine);
  }
  console.log(`\nDiagnosis accuracy on fixtures/reports/diagnosis (${reports.length} runs):\n${accuracyTable(accuracyOf(scored))}\n`);
  console.log(`Thin evidence (the same questions, no stored history: only the rows the dialog sends):\n${accuracyTable(accuracyOf(thin))}\n`);
  if (process.env.DIAGNOSIS_VERBOSE) for (const s of thin.filter((x) => !x.right)) console.log(`  thin, wrong: ${truthKey(s.truth)}: true ${s.truth.cause}, answered ${s.answered} (confidence ${s.confidence})\n    ${s.rootCause.slice(0, 300)}`);
  // DIAGNOSIS_VERBOSE=1 prints every answer, right ones too.
  for (const s of scored.filter((x) => !x.right || process.env.DIAGNOSIS_VERBOSE)) {
    console.log(`  ${s.right ? 'right' : 'wrong'}: ${truthKey(s.truth)}: true ${s.truth.cause}, answered ${s.answered}${s.missing.length ? `, missing ${s.missing.join('; ')}` : ''} (confidence ${s.confidence})`);
    console.log(`    ${rootCauses.get(truthKey(s.truth))?.slice(0, process.env.DIAGNOSIS_VERBOSE ? 1000 : 160)}`);
  }
});
afterAll(async () => {
  await t?.close();
  await bare?.close();
});

/** The dialog's two calls: the test's history on that browser, then the analysis of it. */
async function analyse(title: string, browser: string): Promise<{ result: AiAnalysisResult; request: AiAnalysisRequest }> {
  const detailsUrl = `/api/test-details/${encodeURIComponent(title)}/${encodeURIComponent(browser)}`;
  const details = await t.app.inject({ method: 'GET', url: detailsUrl, headers: who.headers });
  if (details.statusCode !== 200) throw new Error(`${detailsUrl}: ${details.statusCode} ${details.body}`);
  const history = details.json() as TestResultDetail[];
  const failed = history.filter((r) => r.status === 'failed' || r.status === 'timedOut').length;
  const entry = { browser, total_runs: history.length, failed_runs: failed, pass_rate: history.length ? (100 * (history.length - failed)) / history.length : 0 };
  const request = aiAnalysisRequest(title, entry, history);
  return { result: await ask(t, who, request), request };
}

async function ask(on: TestApp, as: Signed, request: AiAnalysisRequest): Promise<AiAnalysisResult> {
  const res = await on.app.inject({ method: 'POST', url: '/api/ai-analysis', headers: as.headers, payload: request as unknown as Record<string, unknown> });
  if (res.statusCode !== 200) throw new Error(`POST /api/ai-analysis for ${request.testSummary.testTitle} on ${request.testSummary.browser}: ${res.statusCode} ${res.body}`);
  return res.json() as AiAnalysisResult;
}

describe('diagnosis accuracy on the labelled corpus', () => {
  it('asks about every labelled test, and every test it asks about is labelled', () => {
    // After `npm run fixtures:diagnosis` a mismatch here means truth.json needs relabelling.
    const labelled = loadTruth().map(truthKey);
    expect(unlabelled).toEqual([]);
    expect(labelled.filter((k) => !asked.has(k))).toEqual([]);
    expect(asked.size).toBeGreaterThanOrEqual(40);
  });

  it('is answered by the local engine', () => {
    expect(engines.length).toBe(scored.length);
    expect(new Set(engines)).toEqual(new Set(['local']));
  });

  // A ratchet at the measured figures, rounded down. 2026-11-23 before issue 14: 25 of 52 of the
  // right class, 19 right with their evidence, mean confidence 0.32 on right and wrong alike.
  // After the cause classes of server/ai/diagnose.ts: 52 of 52 right. Raise; never lower.
  it("does not fall below the measured accuracy (issue 14's target: 90 %)", () => {
    const a = accuracyOf(scored);
    expect(a.classRight / a.n).toBeGreaterThanOrEqual(RATCHET.classOnly);
    expect(a.right / a.n).toBeGreaterThanOrEqual(RATCHET.right);
  });

  it('is less confident when wrong than when right, and says so in words below the threshold', () => {
    const a = accuracyOf(scored);
    // On the full corpus every answer may be right; the calibration is then read on thin evidence.
    if (a.confidenceWrong !== null) expect(a.confidenceWrong).toBeLessThan(a.confidenceRight!);
    const t = accuracyOf(thin);
    expect(t.confidenceWrong).not.toBeNull();
    expect(t.confidenceRight).not.toBeNull();
    expect(t.confidenceWrong!).toBeLessThan(t.confidenceRight! - 0.1);
    for (const s of [...scored, ...thin]) {
      if (s.confidence < LOW_CONFIDENCE) expect(s.rootCause).toMatch(/^Low confidence \(\d+%\)|^No failures on |^Not sure: no results/);
    }
  });
});

const RATCHET = { classOnly: 1, right: 1 };
