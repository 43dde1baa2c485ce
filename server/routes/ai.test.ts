import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_BROWSER_PATTERNS, type AiAnalysisRequest } from '../../core/api/ai.js';
import { PASSWORD, signIn, TEST_SCRYPT, type Signed } from '../../fixtures/testing/app.js';
import { openTestStore } from '../../fixtures/testing/store.js';
import { MODEL_FINDINGS, requestFromStore, seedHistoryOn, startChatServer, testOfKind, type ChatServer } from '../../fixtures/testing/ai.js';
import { DEFAULT_LOCKOUT } from '../auth/lockout.js';
import { hashPassword } from '../auth/passwords.js';
import { registerAuthentication } from '../plugins/authenticate.js';
import { registerErrorHandler } from '../plugins/error-handler.js';
import { registerJsonBodyParser } from '../plugins/json-body.js';
import type { AnyStore } from '../store/engine/types.js';
import { databaseSecret } from '../store/accounts/settings.js';
import { createUser } from '../store/accounts/users.js';
import { registerAuthRoutes } from './auth.js';
import { registerZodCompilers } from '../plugins/openapi.js';
import { registerAiRoutes, type AiRouteOptions } from './ai.js';

/**
 * buildApp() is ready (closed to new routes) when it returns, so these tests wire the same
 * plugins as server/app.ts around the AI route on a real temporary database.
 */
async function buildAiApp(options: Partial<AiRouteOptions> = {}): Promise<{ app: FastifyInstance; store: AnyStore; close(): Promise<void> }> {
  const database = await openTestStore();
  const { store } = database;
  const hash = await hashPassword(PASSWORD, TEST_SCRYPT);
  for (const username of ['max', 'mia']) await createUser(store, { username, passwordHash: hash, role: 'member' });
  const app = Fastify({ logger: false });
  const xsrfSecret = await databaseSecret(store, 'xsrf_secret');
  const sessionIdleMs = 60 * 60 * 1000;
  registerErrorHandler(app);
  registerZodCompilers(app);
  registerJsonBodyParser(app);
  const sessionMaxAgeMs = 24 * sessionIdleMs;
  registerAuthentication(app, { store, xsrfSecret, sessionIdleMs, sessionMaxAgeMs, now: Date.now });
  registerAuthRoutes(app, { store, xsrfSecret, sessionIdleMs, sessionMaxAgeMs, lockout: DEFAULT_LOCKOUT, loginRateLimit: { max: 100, windowMs: 60_000 }, scrypt: TEST_SCRYPT, secureCookies: false, now: Date.now });
  registerAiRoutes(app, { store, env: {}, ...options });
  await app.ready();
  return {
    app,
    store,
    async close() {
      await app.close();
      await database.remove();
    },
  };
}

let t: Awaited<ReturnType<typeof buildAiApp>>;
let max: Signed;
let chat: ChatServer | null = null;
beforeEach(async () => {
  t = await buildAiApp();
  max = await signIn(t.app, 'max');
});
afterEach(async () => {
  await t.close();
  await chat?.close();
  chat = null;
});

const post = (payload: unknown, headers: Record<string, string> = max.headers) => t.app.inject({ method: 'POST', url: '/api/ai-analysis', headers, payload: payload as object });

const minimal: AiAnalysisRequest = {
  testSummary: { testTitle: 'adds to cart', browser: 'chromium', passRate: 0.5, totalRuns: 2, failedRuns: 1 },
  recentResults: [
    { status: 'failed', duration: 10_100, errorMessage: 'TimeoutError: locator.click: Timeout 10000ms exceeded.', runDate: '2026-11-20T10:00:00Z' },
    { status: 'passed', duration: 800, runDate: '2026-11-19T10:00:00Z' },
  ],
};

describe('POST /api/ai-analysis', () => {
  it('answers 401 without sign-in and 403 without the XSRF header of a session', async () => {
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/ai-analysis', payload: minimal });
    expect([anonymous.statusCode, anonymous.json()]).toEqual([401, { error: 'Authentication required' }]);
    const noXsrf = await post(minimal, { authorization: `Bearer ${max.token}` });
    expect(noXsrf.statusCode).toBe(403);
  });

  it('answers 400 with an error text on a bad body', async () => {
    const bad: unknown[] = [
      {},
      { testSummary: minimal.testSummary },
      { testSummary: { browser: 'chromium' }, recentResults: [] },
      { ...minimal, recentResults: [{ status: 'exploded' }] },
      { ...minimal, recentResults: Array.from({ length: 201 }, () => ({ status: 'passed' })) },
      { ...minimal, recentResults: [{ status: 'failed', errorMessage: 'x'.repeat(50_001) }] },
      { ...minimal, testSummary: { ...minimal.testSummary, testTitle: '' } },
    ];
    for (const payload of bad) {
      const res = await post(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(/^Invalid request: /);
    }
  });

  it('analyses a stored test with the local engine and answers the result object', async () => {
    const truth = await seedHistoryOn(t.store);
    const test = testOfKind(truth, 'browser-specific');
    const res = await post(await requestFromStore(t.store, test, test.failingBrowser!));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['browserNotes', 'causeClass', 'confidence', 'engine', 'evidence', 'generatedInMs', 'patterns', 'recommendations', 'rootCause', 'stability', 'stabilityText', 'timestamp']);
    expect(body.engine).toBe('local');
    expect(body.browserNotes).toMatch(new RegExp(`^Fails only on ${test.failingBrowser}`));
    expect(body.confidence).toBeGreaterThan(0.5);
    expect(body.confidence).toBeLessThan(1);
    expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
    expect(body.recommendations[0]).toMatchObject({ title: expect.any(String), description: expect.any(String) });
  });

  it('answers a test it has never stored from the rows sent', async () => {
    const res = await post(minimal);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ engine: 'local', browserNotes: NO_BROWSER_PATTERNS, patterns: expect.arrayContaining([expect.stringMatching(/^Failed 1 of 2 runs on chromium/)]) });
    expect(res.json().confidence).toBeLessThanOrEqual(0.35);
  });

  it('does not rate-limit the local engine: 50 analyses in a row all answer', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 50; i++) codes.push((await post(minimal)).statusCode);
    expect(codes.filter((c) => c !== 200)).toEqual([]);
  });

  it('limits each user to 20 model analyses a minute, answering 429 with Retry-After', async () => {
    chat = await startChatServer(() => ({ body: MODEL_FINDINGS }));
    await t.close();
    t = await buildAiApp({ env: { FLAKEBOARD_AI_BASE_URL: chat.baseUrl, FLAKEBOARD_AI_MODEL: 'test-model' } });
    max = await signIn(t.app, 'max');
    for (let i = 0; i < 20; i++) expect((await post(minimal)).statusCode).toBe(200);
    const limited = await post(minimal);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toMatch(/^Too many analysis requests\. Try again in \d+ seconds\.$/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The limit is per user.
    const mia = await signIn(t.app, 'mia');
    expect((await post(minimal, mia.headers)).statusCode).toBe(200);
  });

  it('answers with the configured model when there is one', async () => {
    chat = await startChatServer(() => ({ body: MODEL_FINDINGS }));
    await t.close();
    t = await buildAiApp({ env: { FLAKEBOARD_AI_BASE_URL: chat.baseUrl, FLAKEBOARD_AI_MODEL: 'test-model' } });
    max = await signIn(t.app, 'max');
    const res = await post(minimal);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ engine: 'model', model: 'test-model', rootCause: MODEL_FINDINGS.rootCause, browserNotes: NO_BROWSER_PATTERNS });
    expect(chat.received).toHaveLength(1);
  });
});
