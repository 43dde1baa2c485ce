import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../core/api/audit.js';
import { buildApp } from '../../server/app.js';
import { recordAudit } from '../../server/store/accounts/audit.js';
import type { AnyStore } from '../../server/store/engine/types.js';
import { cleanEnv, runCli } from '../../fixtures/testing/cli.js';
import { createTestTarget, describeEachEngine, type TestTarget } from '../../fixtures/testing/engines.js';
import { signIn, smallReport, TEST_SCRYPT } from '../../fixtures/testing/app.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';

const HOSTILE = 'evil \u001b]52;c;ZWNobyBwd25lZA==\u0007\u001b[2J\u202e title';

describeEachEngine('flakeboard audit and the commands it records', (engine) => {
  let target: TestTarget;
  let temp: ReturnType<typeof makeTempDir>;
  beforeAll(async () => {
    target = await createTestTarget(engine);
    temp = makeTempDir('flakeboard-audit-');
  });
  afterAll(async () => {
    await target?.remove();
    temp?.cleanup();
  });

  const cli = async (args: string[], input?: string) => {
    const r = await runCli([...args, '--db', target.target], { cwd: temp.dir, env: cleanEnv({ FLAKEBOARD_SCRYPT_N: '1024' }), ...(input === undefined ? {} : { input }) });
    expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };
  const trail = async (...filters: string[]): Promise<AuditEntry[]> => JSON.parse((await cli(['audit', '--json', ...filters])).stdout) as AuditEntry[];
  const withStore = async <T>(work: (store: AnyStore) => Promise<T>): Promise<T> => {
    const store = await target.open();
    try {
      return await work(store);
    } finally {
      await store.close();
    }
  };

  it('records users, roles, passwords, tokens, quarantine and imports made with --db, from the command line on this host', async () => {
    await cli(['user', 'add', 'ada', '--role', 'admin', '--password-stdin'], 'correct horse battery\n');
    await cli(['user', 'add', 'rita', '--role', 'member', '--password-stdin'], 'correct horse battery\n');
    await cli(['user', 'role', 'rita', 'reviewer']);
    await cli(['user', 'passwd', 'rita', '--password-stdin'], 'correct horse battery\n');
    await cli(['token', 'create', 'ci-main', '--user', 'rita', '--scope', 'upload,read']);
    await cli(['token', 'revoke', 'ci-main']);
    await cli(['quarantine', 'add', 'checkout *', '--reason', 'JIRA-7', '--by', 'rita']);
    await cli(['quarantine', 'remove', '1']);
    const report = join(temp.dir, 'report.json');
    writeFileSync(report, JSON.stringify(smallReport('imported')));
    await cli(['import', report, '--approve']);

    const entries = await trail();
    expect(entries.map((e) => e.action).reverse()).toEqual(['user.add', 'user.add', 'user.role', 'user.password', 'token.create', 'token.revoke', 'quarantine.add', 'quarantine.remove', 'run.import']);
    for (const e of entries) expect(e.source).toBe(`cli on ${hostname()}`);
    const by = (action: string) => entries.find((e) => e.action === action)!;
    expect(by('user.role')).toMatchObject({ actor: { kind: 'cli' }, target: { type: 'user', label: 'rita' }, detail: { from: 'member', to: 'reviewer' } });
    expect(by('token.create')).toMatchObject({ target: { type: 'token', label: 'ci-main' }, detail: { user: 'rita', scopes: ['upload', 'read'] } });
    expect(by('token.revoke')).toMatchObject({ target: { type: 'token', label: 'ci-main' } });
    expect(by('quarantine.add')).toMatchObject({ actor: { kind: 'cli', name: 'rita' }, target: { type: 'quarantine', id: '1', label: 'checkout *' }, detail: { reason: 'JIRA-7' } });
    expect(by('run.import')).toMatchObject({ target: { type: 'run', id: '1' }, detail: { tests: 2, status: 'approved' } });
    // Never a password or a token in the trail.
    const all = JSON.stringify(entries);
    expect(all).not.toContain('correct horse battery');
    expect(all).not.toContain('fbt_');

    expect((await trail('--action', 'user.')).map((e) => e.action)).toEqual(['user.password', 'user.role', 'user.add', 'user.add']);
    expect((await trail('--actor', 'rita')).map((e) => e.action)).toEqual(['quarantine.add']);
    expect(await trail('--since', '2000-01-01', '--until', '2000-01-02')).toEqual([]);
  });

  it('answers "who deleted this run?" in one filter, for a delete made through the API', async () => {
    const runId = await withStore(async (store) => {
      const app = await buildApp({ store, uiDir: null, scrypt: TEST_SCRYPT, writerWorker: false, analyticsWorker: false });
      try {
        const ada = await signIn(app, 'ada');
        const res = await app.inject({ method: 'DELETE', url: '/api/test-run/1', headers: ada.headers });
        expect(res.statusCode, res.body).toBe(200);
        return 1;
      } finally {
        await app.close();
      }
    });
    const table = (await cli(['audit', '--run', String(runId)])).stdout;
    const lines = table.trim().split('\n');
    expect(lines[0]).toMatch(/^TIME\s+ACTOR\s+FROM\s+ACTION\s+TARGET\s+DETAIL$/);
    expect(lines[1]).toMatch(/ ada\s+127\.0\.0\.1\s+run\.delete\s+run 1 "/);
    expect(lines[2]).toMatch(/\(cli\)\s+cli on .*run\.import\s+run 1 /);
    expect(lines).toHaveLength(3);
  });

  it('prints hostile text inert, in the table and in JSON', async () => {
    await cli(['quarantine', 'add', HOSTILE, '--reason', `why \u001b[31m red \u202e`]);
    for (const args of [['audit', '--action', 'quarantine.add'], ['audit', '--json', '--action', 'quarantine.add']]) {
      const out = (await cli(args)).stdout;
      expect(out).toContain('evil');
      expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    }
    // The JSON still holds the text as it was.
    expect((await trail('--action', 'quarantine.add'))[0]!.target!.label).toBe(HOSTILE);
  });

  it('prune removes the entries older than its cut with the runs, and records itself', async () => {
    const report = join(temp.dir, 'to-prune.json');
    writeFileSync(report, JSON.stringify(smallReport('to be pruned')));
    await cli(['import', report, '--approve']);
    const old = Date.parse('2026-01-02T10:00:00Z');
    await withStore((store) => recordAudit(store, { actor: { kind: 'system' }, source: 'server', action: 'run.delete', target: { type: 'run', id: 99 }, at: old }));
    const before = (await trail('--limit', '10000')).length;
    // The imported run started on 2026-11-20 (smallReport); the cut is the day after.
    const r = await cli(['prune', '--older-than', '2026-11-21', '--yes', '--json']);
    expect(JSON.parse(r.stdout)).toMatchObject({ runs: 1, auditEntries: 1 });
    const after = await trail('--limit', '10000');
    expect(after.find((e) => e.target?.id === '99')).toBeUndefined();
    expect(after[0]).toMatchObject({ action: 'runs.prune', actor: { kind: 'cli' }, detail: { runs: 1, auditEntries: 1 } });
    // Everything newer than the cut stays, the run's own entries too.
    expect(after).toHaveLength(before - 1 + 1);
  });
});

// Refused before the database is opened, so once for both engines; all at once, each its own process.
describe('flakeboard audit: filters it cannot read', () => {
  it('refuses them, naming them', async () => {
    const temp = makeTempDir('flakeboard-audit-filters-');
    try {
      const cases = [
        [['--since', 'yesterday'], /--since must be a duration/],
        [['--run', 'abc'], /--run must be a run id/],
        [['--run', '1', '--target', 'run:2'], /--run and --target both name a target/],
        [['--limit', '0'], /--limit must be a whole number from 1 to 10000/],
      ] as const;
      const answers = await Promise.all(cases.map(([args]) => runCli(['audit', ...args, '--db', join(temp.dir, 'f.db')], { cwd: temp.dir, env: cleanEnv() })));
      cases.forEach(([, message], i) => {
        expect(answers[i]!.exitCode).toBe(1);
        expect(answers[i]!.stderr).toMatch(message);
      });
    } finally {
      temp.cleanup();
    }
  });
});
