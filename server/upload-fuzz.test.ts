import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signIn, type Signed, type TestApp } from '../fixtures/testing/app.js';
import { reportLikeText } from '../fixtures/testing/report-arbitrary.js';

let t: TestApp;
let session: Signed;
beforeAll(async () => {
  t = await buildTestApp();
  session = await signIn(t.app, 'max');
});
afterAll(() => t.close());

describe('POST /api/upload with fuzzed reports', () => {
  it('answers 200 or a 400 with an error text, never a 5xx; a refused report stores nothing', async () => {
    const answered = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(reportLikeText, async (text) => {
        const before = (await t.store.sql.value<number>('SELECT count(*) FROM runs'))!;
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/upload',
          headers: { ...session.headers, 'content-type': 'application/json' },
          payload: `{"testResults":${text.trim() === '' ? 'null' : text},"metadata":{"fileName":"fuzz.json"}}`,
        });
        answered.set(res.statusCode, (answered.get(res.statusCode) ?? 0) + 1);
        expect([200, 400]).toContain(res.statusCode);
        const after = (await t.store.sql.value<number>('SELECT count(*) FROM runs'))!;
        if (res.statusCode === 400) {
          expect(typeof res.json().error).toBe('string');
          expect(res.json().error.length).toBeGreaterThan(0);
          expect(after).toBe(before);
        } else expect(after).toBe(before + 1);
      }),
      { numRuns: 250 },
    );
    expect(answered.get(200)).toBeGreaterThan(25);
    expect(answered.get(400)).toBeGreaterThan(25);
  });
});
