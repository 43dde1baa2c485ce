import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuarantineListResponse, QuarantineView } from '../../core/api/quarantine.js';
import { buildTestApp, signIn, type Signed, type TestApp } from '../../fixtures/testing/app.js';

const NOW = Date.parse('2026-11-20T18:00:00Z');
let t: TestApp;
let rita: Signed;

beforeAll(async () => {
  t = await buildTestApp({ now: () => NOW });
  rita = await signIn(t.app, 'rita');
});
afterAll(() => t.close());

describe('/api/quarantine dates', () => {
  it('answers the last UTC day an entry applies, the day a date names and the one before a count of days ends', async () => {
    const add = async (title: string, expires: string) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/quarantine', headers: rita.headers, payload: { title, reason: 'why', expires } });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { entry: QuarantineView }).entry;
    };
    expect(await add('dated', '2026-12-09')).toMatchObject({ through: '2026-12-09', expiresAt: Date.parse('2026-12-10T00:00:00Z'), expired: false });
    // 14 days from today (2026-11-20): through 2026-12-03, stopping as 2026-12-04 starts.
    expect(await add('counted', '14d')).toMatchObject({ through: '2026-12-03', expiresAt: Date.parse('2026-12-04T00:00:00Z') });
    expect(await add('endless', 'never')).toMatchObject({ through: null, expiresAt: null });
    const list = (await t.app.inject({ method: 'GET', url: '/api/quarantine', headers: rita.headers })).json() as QuarantineListResponse;
    expect(Object.fromEntries(list.entries.map((e) => [e.title, e.through]))).toEqual({ dated: '2026-12-09', counted: '2026-12-03', endless: null });
  });
});
