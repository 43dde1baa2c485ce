/**
 * How often the diagnosis names the true cause and the right flaky/steady class on the trace
 * corpus (fixtures/reports/diagnosis-traces, recorded by fixtures/diagnosis-traces): failures
 * whose error text says only what the page showed, and whose failing attempt's trace says why.
 * The real report is imported with the real ingest, each test's history is read from the store,
 * and each is analysed twice: without its traces and with them (the failing attempt's and, when
 * it kept one, the retry's). `npx vitest run server/ai/trace-corpus-accuracy.test.ts` prints both.
 */
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AiAnalysisRequest, AiAnalysisResult } from '../../core/api/ai.js';
import { buildTestApp, type TestApp } from '../../fixtures/testing/app.js';
import { scoreAnswer, type Scored } from '../../fixtures/testing/diagnosis-score.js';
import { corpusDir, loadTruth, type TruthEntry } from '../../fixtures/testing/diagnosis-truth.js';
import { MODEL_FINDINGS, startChatServer } from '../../fixtures/testing/ai.js';
import { ingestBytes } from '../ingest.js';
import { loadTestHistory } from '../store/read/test-history.js';
import { analyseTest } from './analyse.js';
import { gatherEvidence } from './evidence.js';
import { analyseLocally } from './local-engine.js';
import { readSignals } from './signals.js';
import type { AnalysisTraces } from './trace-reading.js';

const FLAKY_WORDS = /\bFlaky\b/;

interface Answer extends Scored {
  flakyRight: boolean;
}

/** The trace folders Playwright named for a test: <file>-<title slug>, and -retry1 for the retry. */
function tracesOf(dir: string, truth: Pick<TruthEntry, 'file' | 'title'>): AnalysisTraces {
  const slug = `${truth.file.replace(/\.spec\.ts$/, '')}-${truth.title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;
  const read = (folder: string) => {
    const path = join(dir, 'output', folder, 'trace.zip');
    return existsSync(path) ? new Uint8Array(readFileSync(path)) : undefined;
  };
  return { failing: read(slug), passing: undefined };
}

async function answer(t: TestApp, dir: string, truth: TruthEntry, withTraces: boolean): Promise<Answer> {
  const history = await loadTestHistory(t.store, { title: truth.title, file: truth.file });
  const failed = history.entries.filter((e) => e.status !== 'passed').length;
  const request: AiAnalysisRequest = {
    testSummary: { testTitle: truth.title, browser: truth.project, passRate: 0, totalRuns: history.entries.length, failedRuns: failed },
    recentResults: [],
  };
  const evidence = gatherEvidence(request, history, withTraces ? tracesOf(dir, truth) : undefined);
  const local = analyseLocally(evidence, readSignals(evidence));
  const result = { ...local, causeClass: undefined, engine: 'local' } as unknown as AiAnalysisResult;
  const scored = scoreAnswer(truth, { ...result, causeClass: (local as { causeClass?: unknown }).causeClass } as AiAnalysisResult);
  const saysFlaky = FLAKY_WORDS.test(local.rootCause);
  const flaky = (truth as TruthEntry & { flaky: boolean }).flaky;
  // Right in plain words (the cause and the line the UI shows first) and in the answer's field.
  return { ...scored, flakyRight: saysFlaky === flaky && local.stabilityText.startsWith('Flaky:') === flaky && local.stability === (flaky ? 'flaky' : 'steady') };
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
function table(label: string, answers: Answer[]): string {
  const right = answers.filter((a) => a.right);
  const wrong = answers.filter((a) => !a.right);
  const lines = answers.map((a) => `  ${a.right ? 'right' : 'wrong'} ${a.truth.title}: true ${a.truth.cause}, answered ${a.answered}${a.missing.length ? ` (missing ${a.missing.join('; ')})` : ''}, flaky/steady ${a.flakyRight ? 'right' : 'wrong'}, confidence ${a.confidence}`);
  return [
    `${label}: right cause ${right.length} of ${answers.length}, right flaky/steady ${answers.filter((a) => a.flakyRight).length} of ${answers.length}, mean confidence right ${mean(right.map((a) => a.confidence)).toFixed(2)}, wrong ${mean(wrong.map((a) => a.confidence)).toFixed(2)}`,
    ...lines,
  ].join('\n');
}

for (const corpus of ['diagnosis-traces', 'diagnosis-traces-holdout']) {
  describe(`diagnosis accuracy on ${corpus}`, () => {
    const dir = corpusDir(corpus);
    let t: TestApp;
    const without: Answer[] = [];
    const withTraces: Answer[] = [];
    beforeAll(async () => {
      t = await buildTestApp({ now: () => Date.UTC(2026, 10, 20) });
      ingestBytes(t.store, readFileSync(join(dir, 'run-1.json')), { fileName: 'run-1.json', approve: true, fallbackStartedAt: Date.UTC(2026, 10, 19) });
      for (const truth of loadTruth(dir)) {
        without.push(await answer(t, dir, truth, false));
        withTraces.push(await answer(t, dir, truth, true));
      }
      console.log(`\n${corpus}\n${table('Without traces', without)}\n\n${table("With the failing attempts' traces", withTraces)}\n`);
    }, 60_000);
    afterAll(async () => t?.app.close());

    it('labels every failing or flaky test of the report, and every failing attempt kept its trace', () => {
      expect(withTraces.length).toBe(loadTruth(dir).length);
      expect(withTraces.length).toBeGreaterThanOrEqual(4);
      for (const a of withTraces) expect(tracesOf(dir, a.truth).failing, a.truth.title).toBeDefined();
    });

    it('with the traces names more causes right than without (figures in docs/ai-analysis.md)', () => {
      expect(withTraces.filter((a) => a.right).length).toBeGreaterThan(without.filter((a) => a.right).length);
    });

    it('calls every flaky test flaky in plain words and no steady one, with or without traces', () => {
      expect(withTraces.filter((a) => !a.flakyRight).map((a) => a.truth.title)).toEqual([]);
      expect(without.filter((a) => !a.flakyRight).map((a) => a.truth.title)).toEqual([]);
    });
  });
}

describe('the model path on a trace corpus case', () => {
  it("receives the failing attempt's trace findings inside the data fence, and its answer is held to the schema", async () => {
    const dir = corpusDir('diagnosis-traces');
    const t = await buildTestApp({ now: () => Date.UTC(2026, 10, 20) });
    let answers = 0;
    // First a valid answer, then one missing its fields: that one is refused and the local answer stands.
    const server = await startChatServer(() => (answers++ === 0 ? { body: MODEL_FINDINGS } : { body: { rootCause: 42 } }));
    try {
      ingestBytes(t.store, readFileSync(join(dir, 'run-1.json')), { fileName: 'run-1.json', approve: true, fallbackStartedAt: Date.UTC(2026, 10, 19) });
      const truth = loadTruth(dir).find((e) => e.title === 'case 01: stock count')!;
      const history = await loadTestHistory(t.store, { title: truth.title, file: truth.file });
      const request: AiAnalysisRequest = { testSummary: { testTitle: truth.title, browser: 'chromium', passRate: 0.5, totalRuns: history.entries.length, failedRuns: 1 }, recentResults: [] };
      const env = { FLAKEBOARD_AI_BASE_URL: server.baseUrl, FLAKEBOARD_AI_MODEL: 'test-model' };
      const options = () => ({ store: t.store, env, fetch, now: Date.now, log: { warn: () => {} }, traces: tracesOf(dir, truth) });
      const modelled = await analyseTest(request, options());
      const prompt = server.received[0]!.body.messages.find((m) => m.role === 'user')!.content;
      const data = prompt.slice(prompt.indexOf('<report-data>') + 13, prompt.lastIndexOf('</report-data>'));
      const parsed = JSON.parse(data) as { failingAttemptTrace: { failedRequests: Array<{ url: string; status: number | null }> } };
      expect(parsed.failingAttemptTrace.failedRequests).toContainEqual(expect.objectContaining({ url: expect.stringContaining('/api/stock'), status: 500 }));
      expect(prompt.length).toBeLessThan(60_000);
      expect(modelled.engine).not.toBe('local');
      // The class stays the rules' whatever the model says.
      expect(modelled.causeClass).toBe('http-status');
      expect(modelled.stability).toBe('flaky');
      const refused = await analyseTest(request, options());
      expect(refused.engine).toBe('local');
      expect(refused.causeClass).toBe('http-status');
      expect(refused.rootCause).toContain('/api/stock');
    } finally {
      await server.close();
      await t.app.close();
    }
  });
});
