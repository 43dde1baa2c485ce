import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestTarget, describeEachEngine, type TestTarget } from '../../../fixtures/testing/engines.js';
import { ownersOfFile, parseCodeowners } from '../../../core/owners/codeowners.js';
import { ingestBytes, type IngestOptions } from '../../ingest.js';
import type { AnyStore } from '../engine/types.js';
import { knownOwners, ownersOf, ownersOfTitle } from '../read/owners.js';

const passed = { status: 'passed', retry: 0, duration: 5 };
const spec = (title: string, file: string, extra: { tags?: string[]; annotations?: Array<{ type: string; description?: string }> } = {}) => ({
  title,
  file,
  line: 1,
  column: 1,
  tags: extra.tags ?? [],
  tests: [
    { projectName: 'chromium', expectedStatus: 'passed', annotations: extra.annotations ?? [], results: [passed] },
    { projectName: 'firefox', expectedStatus: 'passed', annotations: [], results: [passed] },
  ],
});

/** A report whose rootDir is /ci/checkout/e2e: its files are e2e/… in the repository. */
function report(run: number, annotated: boolean): Uint8Array {
  return Buffer.from(
    JSON.stringify({
      config: { rootDir: '/ci/checkout/e2e', projects: [{ name: 'chromium' }, { name: 'firefox' }], version: '1.50.0' },
      suites: [
        {
          title: 'shop/cart.spec.ts',
          file: 'shop/cart.spec.ts',
          specs: [
            spec('adds', 'shop/cart.spec.ts'),
            spec('pays', 'shop/cart.spec.ts', annotated ? { annotations: [{ type: 'owner', description: '@payments, bob' }] } : {}),
            spec('tagged', 'shop/cart.spec.ts', annotated ? { tags: ['@slow', '@owner:alice'] } : {}),
          ],
        },
        { title: 'misc.spec.ts', file: 'misc.spec.ts', specs: [spec('alone', 'misc.spec.ts')] },
      ],
      errors: [],
      stats: { startTime: new Date(Date.UTC(2026, 0, 5, 12, run)).toISOString(), duration: 10 },
    }),
  );
}

const options = (codeowners: string | null): IngestOptions => ({
  fileName: 'report.json',
  approve: true,
  fallbackGit: () => ({ branch: null, commit: null }),
  // As the CLI resolves them: the report's files under e2e/ of the checkout.
  ownersFor: codeowners === null ? undefined : () => (file) => ownersOfFile(parseCodeowners(codeowners), `e2e/${file}`),
});

describeEachEngine('test owners stored with each run', (engine) => {
  let target: TestTarget;
  let store: AnyStore;
  beforeAll(async () => {
    target = await createTestTarget(engine);
    store = await target.open();
  });
  afterAll(async () => {
    await store?.close();
    await target?.remove();
  });

  const byTitle = async () => {
    const tests = await store.sql.all<{ id: number; title: string }>('SELECT id, title FROM tests ORDER BY id');
    const owners = await ownersOf(store, tests.map((t) => Number(t.id)));
    return Object.fromEntries(tests.map((t) => [t.title, (owners.get(Number(t.id)) ?? []).map((o) => `${o.owner} (${o.source})`)]));
  };

  it('annotations and tags win over CODEOWNERS; an unmatched file is unowned', async () => {
    await ingestBytes(store, report(0, true), options('* @everyone\n/e2e/shop/ @shop-team\n'));
    expect(await byTitle()).toEqual({
      adds: ['@shop-team (codeowners)'],
      pays: ['@bob (annotation)', '@payments (annotation)'],
      tagged: ['@alice (tag)'],
      alone: ['@everyone (codeowners)'],
    });
    expect(await knownOwners(store)).toEqual([
      { owner: '@alice', tests: 1 },
      { owner: '@bob', tests: 1 },
      { owner: '@everyone', tests: 1 },
      { owner: '@payments', tests: 1 },
      { owner: '@shop-team', tests: 1 },
    ]);
    expect(await ownersOfTitle(store, 'pays', null)).toEqual(['@bob', '@payments']);
    expect(await ownersOfTitle(store, 'pays', 'other.spec.ts')).toEqual([]);
  });

  it('a run without CODEOWNERS keeps the stored CODEOWNERS owners and drops removed annotations', async () => {
    await ingestBytes(store, report(1, false), options(null));
    expect(await byTitle()).toEqual({ adds: ['@shop-team (codeowners)'], pays: [], tagged: [], alone: ['@everyone (codeowners)'] });
  });

  it('the newest CODEOWNERS wins, and a pattern with no owners unsets them', async () => {
    await ingestBytes(store, report(2, false), options('* @everyone\n/e2e/shop/ @shop-team\n/e2e/shop/cart.spec.ts\n'));
    expect(await byTitle()).toEqual({ adds: [], pays: [], tagged: [], alone: ['@everyone (codeowners)'] });
  });
});
