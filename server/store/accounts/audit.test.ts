import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestTarget, describeEachEngine, type TestTarget } from '../../../fixtures/testing/engines.js';
import type { AnyStore } from '../engine/types.js';
import { countAuditBefore, listAudit, pruneAudit, recordAudit } from './audit.js';

describeEachEngine('the audit trail store', (engine) => {
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
  const page = { limit: 50, offset: 0 };

  it('bounds a label and a detail, keeping the row readable', async () => {
    await recordAudit(store, { actor: { kind: 'user', id: 1, name: 'Ana' }, source: '10.0.0.1', action: 'quarantine.add', target: { type: 'quarantine', id: 7, label: 'x'.repeat(5_000) }, detail: { reason: 'y'.repeat(20_000) }, at: 1_000 });
    const [entry] = (await listAudit(store, { action: 'quarantine.add' }, page)).items;
    expect(entry!.target!.label).toHaveLength(501);
    expect(entry!.target!.id).toBe('7');
    expect(entry!.detail).toMatchObject({ truncated: true });
    expect(String(entry!.detail!.start).length).toBe(8_000);
  });

  it('matches an actor whatever its case, an action prefix only as a prefix, and a target by type or type and id', async () => {
    await recordAudit(store, { actor: { kind: 'token', id: 2, name: 'Rita' }, source: '10.0.0.2', action: 'run.upload', target: { type: 'run', id: 12 }, at: 2_000 });
    await recordAudit(store, { actor: { kind: 'cli', name: 'root' }, source: 'cli on box', action: 'runs.prune', at: 3_000 });
    expect((await listAudit(store, { actor: 'RITA' }, page)).items.map((e) => e.action)).toEqual(['run.upload']);
    // LIKE's own characters are text: the prefix 'ru_.' does not match 'run.upload', nor '%.' everything.
    expect((await listAudit(store, { action: 'ru_.' }, page)).total).toBe(0);
    expect((await listAudit(store, { action: '%.' }, page)).total).toBe(0);
    expect((await listAudit(store, { action: 'run' }, page)).total).toBe(0);
    expect((await listAudit(store, { action: 'run.' }, page)).items.map((e) => e.action)).toEqual(['run.upload']);
    expect((await listAudit(store, { target: 'run:12' }, page)).total).toBe(1);
    expect((await listAudit(store, { target: 'run:1' }, page)).total).toBe(0);
    expect((await listAudit(store, { since: 2_000, until: 3_000 }, page)).items.map((e) => e.action)).toEqual(['run.upload']);
    expect((await listAudit(store, {}, page)).items.map((e) => e.at)).toEqual([3_000, 2_000, 1_000].map((ms) => new Date(ms).toISOString()));
  });

  it('prunes by age only', async () => {
    expect(await countAuditBefore(store, 2_500)).toBe(2);
    expect(await pruneAudit(store, 2_500)).toBe(2);
    expect((await listAudit(store, {}, page)).items.map((e) => e.action)).toEqual(['runs.prune']);
  });

  it('finds by a prefix holding LIKE characters exactly that prefix', async () => {
    await recordAudit(store, { actor: { kind: 'cli', name: 'root' }, source: 'cli on box', action: 'api_token.create', at: 4_000 });
    await recordAudit(store, { actor: { kind: 'cli', name: 'root' }, source: 'cli on box', action: 'apiXtoken.create', at: 5_000 });
    await recordAudit(store, { actor: { kind: 'cli', name: 'root' }, source: 'cli on box', action: '100%.done', at: 6_000 });
    expect((await listAudit(store, { action: 'api_token.' }, page)).items.map((e) => e.action)).toEqual(['api_token.create']);
    expect((await listAudit(store, { action: '100%.' }, page)).items.map((e) => e.action)).toEqual(['100%.done']);
  });
});
