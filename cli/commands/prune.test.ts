import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, signIn } from '../../fixtures/testing/app.js';
import { execa } from 'execa';
import { BIN, cleanEnv, runCli } from '../../fixtures/testing/cli.js';
import { pollHealth, startServe, writeHistory, type LiveServe } from '../../fixtures/testing/live-serve.js';
import { withStore } from '../../fixtures/testing/store.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';
import { ingestValue } from '../../server/ingest.js';

let temp: ReturnType<typeof makeTempDir>;
let serve: LiveServe | null = null;
beforeEach(() => {
  temp = makeTempDir('flakeboard-prune-cli-');
});
afterEach(async () => {
  await serve?.stop();
  serve = null;
  temp.cleanup();
});

const DAY = 86_400_000;
const env = cleanEnv();

/** 12 reports, one every 10 days up to now, and one more of today kept apart. */
function reports() {
  const all = writeHistory(temp.dir, { seed: 7, runs: 13, days: 130, tests: 40, browsers: ['chromium', 'firefox'], endDate: Date.now() });
  return { history: all.slice(0, 12), extra: all[12]! };
}

/** The dashboard figures that do not name stored ids. */
function figures(d: unknown) {
  const { recentRuns, ...rest } = d as { recentRuns: Array<Record<string, unknown>> };
  return { ...rest, recentRuns: recentRuns.map(({ id: _, ...run }) => run) };
}

describe('flakeboard prune', () => {
  it('prunes a live database while serve keeps answering and writing; the dashboard then shows what a database without the old runs shows', async () => {
    const db = join(temp.dir, 'live.db');
    const { history, extra } = reports();
    expect((await runCli(['import', '--db', db, ...history.map((r) => r.file)], { env })).exitCode).toBe(0);
    serve = await startServe(db);
    const get = await serve.signIn('admin', serve.adminPassword!);
    const before = (await get('/api/dashboard?days=0')) as { summary: Array<{ total_runs: number }> };

    const old = history.filter((r) => r.startedAt < Date.now() - 60 * DAY);
    expect(old.length).toBeGreaterThanOrEqual(5);
    const health = pollHealth(serve.url);
    // A prune and an import into the same file at once, while serve reads it.
    const [pruned, imported] = await Promise.all([runCli(['prune', '--db', db, '--older-than', '60d', '--yes', '--json'], { env }), runCli(['import', '--db', db, extra.file], { env })]);
    const { statuses, slowestMs } = await health.stop();
    expect(pruned.stderr).toBe('');
    expect([pruned.exitCode, imported.exitCode]).toEqual([0, 0]);
    expect(statuses.length).toBeGreaterThan(3);
    expect(statuses.every((s) => s === 200)).toBe(true);
    // Wide margin: a prune holding the server would be seconds.
    expect(slowestMs).toBeLessThan(1000);

    const summary = JSON.parse(pruned.stdout) as { runs: number; results: number; attempts: number; days: number; dryRun: boolean };
    expect(summary).toMatchObject({ runs: old.length, dryRun: false });
    expect(summary.results).toBe(old.length * 40 * 2);
    // One run every 10 days; a run that crosses midnight UTC touches two.
    expect(summary.days).toBeGreaterThanOrEqual(old.length);
    expect(summary.days).toBeLessThanOrEqual(2 * old.length);

    // The server's cached answers follow the runs table by themselves.
    const after = await get('/api/dashboard?days=0');
    expect((after as typeof before).summary[0]!.total_runs).toBeLessThan(before.summary[0]!.total_runs);
    const reference = await buildTestApp();
    try {
      for (const r of [...history.filter((h) => !old.includes(h)), extra]) ingestValue(reference.store, r.report, { fileName: r.fileName });
      const signed = await signIn(reference.app, 'admin');
      const expected = (await reference.app.inject({ url: '/api/dashboard?days=0', headers: { authorization: `Bearer ${signed.token}` } })).json();
      expect(figures(after)).toEqual(figures(expected));
    } finally {
      await reference.close();
    }
    await withStore(db, (store) => {
      expect(store.sqlite.prepare('SELECT count(*) FROM runs').pluck().get()).toBe(history.length - old.length + 1);
    });
  });

  it('--dry-run says what would go and removes nothing; without a terminal it needs --yes', async () => {
    const db = join(temp.dir, 'f.db');
    const { history } = reports();
    await runCli(['import', '--db', db, ...history.map((r) => r.file)], { env });
    const old = history.filter((r) => r.startedAt < Date.now() - 90 * DAY).length;

    const dry = await runCli(['prune', '--db', db, '--older-than', '90d', '--dry-run'], { env });
    expect(dry.exitCode).toBe(0);
    expect(dry.stdout).toMatch(new RegExp(`^Would remove: ${old} runs started before \\d{4}-\\d\\d-\\d\\d \\(.+\\), ${(old * 80).toLocaleString('en-US')} results, [\\d,]+ attempts, about [\\d.]+ (KB|MB)\\.$`, 'm'));

    const refused = await runCli(['prune', '--db', db, '--older-than', '90d'], { env });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('there is no terminal to ask on: pass --yes to confirm');
    await withStore(db, (store) => expect(store.sqlite.prepare('SELECT count(*) FROM runs').pluck().get()).toBe(history.length));

    const done = await runCli(['prune', '--db', db, '--older-than', '90d', '--yes'], { env });
    expect(done.exitCode).toBe(0);
    expect(done.stdout).toContain(`✓ Removed ${old} runs started before`);
    expect(done.stdout).toContain('free inside the file and will be reused by new imports. To give them back to the disk, run once with --vacuum');

    const vacuum = await runCli(['prune', '--db', db, '--older-than', '90d', '--yes', '--vacuum'], { env });
    expect(vacuum.stdout).toMatch(/No run started before .*: nothing to prune\.\n✓ VACUUM gave [\d.]+ (KB|MB) back to the disk/);
  });

  // A terminal through util-linux `script`, which gives the command a pseudo-terminal.
  it.runIf(process.platform === 'linux')('asks on a terminal and removes nothing unless the answer is yes', async () => {
    const db = join(temp.dir, 'f.db');
    const { history } = reports();
    await runCli(['import', '--db', db, ...history.map((r) => r.file)], { env });
    const old = history.filter((r) => r.startedAt < Date.now() - 90 * DAY).length;
    const ask = (answer: string) =>
      execa('script', ['-qec', `${process.execPath} ${BIN} prune --db ${db} --older-than 90d`, '/dev/null'], { input: answer, env: { ...env, NO_COLOR: '1' }, reject: false });
    const runs = () => withStore(db, (store) => store.sqlite.prepare('SELECT count(*) FROM runs').pluck().get());

    const no = await ask('n\n');
    expect(no.stdout).toContain(`Remove these ${old} runs for good? [y/N]`);
    expect(no.stdout).toContain('Nothing removed.');
    expect(no.exitCode).toBe(1);
    expect(await runs()).toBe(history.length);

    const yes = await ask('y\n');
    expect(yes.stdout).toContain(`✓ Removed ${old} runs started before`);
    expect(yes.exitCode).toBe(0);
    expect(await runs()).toBe(history.length - old);
  });

  it('refuses a missing database, a bad age, and a bad --prune-older-than for serve, each with the reason', async () => {
    const missing = await runCli(['prune', '--db', join(temp.dir, 'none.db'), '--older-than', '90d', '--yes'], { env });
    expect([missing.exitCode, missing.stderr.trim()]).toEqual([1, `flakeboard: no database at ${join(temp.dir, 'none.db')}: pass --db or set FLAKEBOARD_DB`]);
    const bad = await runCli(['prune', '--db', join(temp.dir, 'none.db'), '--older-than', '90 days'], { env });
    expect(bad.stderr).toContain('--older-than must be an age such as 90d, 12w, 6m or 1y, or a date YYYY-MM-DD, not "90 days"');
    const serveBad = await runCli(['serve', '--port', '0', '--db', join(temp.dir, 's.db')], { env: cleanEnv({ FLAKEBOARD_PRUNE_OLDER_THAN: '3 months' }) });
    expect([serveBad.exitCode, serveBad.stderr]).toEqual([1, expect.stringContaining('not "3 months"')]);
  });

  it('serve --prune-older-than prunes at start, in a process of its own, and logs what it removed', async () => {
    const db = join(temp.dir, 'f.db');
    const { history } = reports();
    await runCli(['import', '--db', db, ...history.map((r) => r.file)], { env });
    const old = history.filter((r) => r.startedAt < Date.now() - 30 * DAY).length;
    serve = await startServe(db, ['--prune-older-than', '30d']);
    const deadline = Date.now() + 30_000;
    while (!/prune --older-than 30d: removed/.test(serve.output()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(serve.output()).toMatch(new RegExp(`prune --older-than 30d: removed ${old} runs started before \\S+ \\(${old * 80} results, \\d+ attempts\\)`));
    const get = await serve.signIn('admin', serve.adminPassword!);
    const recent = (await get('/api/recent-uploads')) as unknown[];
    expect(recent).toHaveLength(history.length - old);
  });
});
