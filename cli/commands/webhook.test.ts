import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../core/api/webhooks.js';
import { cleanEnv, runCli } from '../../fixtures/testing/cli.js';
import { writeGateReport } from '../../fixtures/testing/gate-reports.js';
import { startServe } from '../../fixtures/testing/serve-process.js';
import { withStore } from '../../fixtures/testing/store.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';
import { startReceiver, verifySignature, type Receiver } from '../../fixtures/testing/webhook-receiver.js';

let temp: ReturnType<typeof makeTempDir>;
let db: string;
let receiver: Receiver;
beforeEach(async () => {
  temp = makeTempDir('flakeboard-webhook-');
  db = join(temp.dir, 'f.db');
  receiver = await startReceiver();
});
afterEach(async () => {
  await receiver.close();
  temp.cleanup();
});

const cli = (args: string[]) => runCli([...args, '--db', db], { cwd: temp.dir, env: cleanEnv({ FLAKEBOARD_SCRYPT_N: '1024' }) });

async function addGeneric(name = 'alerts', ...more: string[]): Promise<string> {
  const r = await cli(['webhook', 'add', name, '--kind', 'generic', '--url', receiver.url, ...more]);
  expect(r.stderr).toContain(`added webhook`);
  expect(r.exitCode).toBe(0);
  return r.stdout.trim();
}

const importRun = (name: string, outcomes: Record<string, 'passed' | 'failed' | 'flaky'>, day: string) =>
  cli(['import', writeGateReport(temp.dir, name, outcomes, `${day}T10:00:00.000Z`), '--branch', 'main', '--commit', name.replace('.json', ''), '--approve']);

describe('flakeboard webhook', () => {
  it('refuses a URL that is not http(s) with the reason, and stores nothing', async () => {
    const r = await cli(['webhook', 'add', 'x', '--kind', 'generic', '--url', 'ftp://example.com/hook']);
    expect(r.stderr.trim()).toBe('flakeboard: A webhook URL must start with http:// or https://, not ftp:');
    expect(r.exitCode).toBe(1);
    const kind = await cli(['webhook', 'add', 'x', '--kind', 'discord', '--url', receiver.url]);
    expect(kind.stderr.trim()).toBe('flakeboard: Unknown webhook kind "discord": use slack, teams, generic');
    expect(await withStore(db, (s) => s.sqlite.prepare('SELECT count(*) AS n FROM webhooks').get())).toEqual({ n: 0 });
  });

  it('prints a generic hook’s secret once, lists hooks without it, masks Slack URLs, tests and removes', async () => {
    const secret = await addGeneric();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await cli(['webhook', 'add', 'team chat', '--kind', 'slack', '--url', 'http://127.0.0.1:9/services/T0/B0/SECRETPART', '--events', 'broken-on-base,pass-rate', '--pass-rate', '95']);
    const list = await cli(['webhook', 'list']);
    expect(list.stdout).not.toContain(secret);
    expect(list.stdout).not.toContain('SECRETPART');
    expect(list.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+KIND\s+URL\s+EVENTS\s+BASE\s+PASS RATE\s+EXPIRY$/);
    expect(list.stdout).toMatch(/2\s+team chat\s+slack\s+http:\/\/127\.0\.0\.1:9\/service…\s+broken-on-base,pass-rate\s+main\s+95%\s+3d/);

    receiver.script = [204];
    const test = await cli(['webhook', 'test', 'alerts']);
    expect(test.stdout.trim()).toBe('✓ webhook "alerts": the receiver answered 204');
    expect(verifySignature(secret, receiver.received[0]!.headers, receiver.received[0]!.body)).toBe('ok');
    receiver.script = [500];
    const failing = await cli(['webhook', 'test', '1']);
    expect(failing.stderr.trim()).toBe('flakeboard: webhook "alerts": the receiver answered 500');
    expect(failing.exitCode).toBe(1);
    const log = await cli(['webhook', 'list', '--deliveries']);
    expect(log.stdout).toMatch(/2\s+alerts\s+test\s+failed\s+1\s+500/);
    expect(log.stdout).toMatch(/1\s+alerts\s+test\s+sent\s+1\s+204/);
    // Each test send is in the audit trail, with what the receiver answered.
    const tests = await withStore(db, (s) => s.sqlite.prepare("SELECT detail_json AS detail FROM audit_log WHERE action = 'webhook.test' ORDER BY id").all());
    expect(tests.map((t) => JSON.parse((t as { detail: string }).detail))).toEqual([{ ok: true, status: 204 }, { ok: false, status: 500 }]);

    expect((await cli(['webhook', 'remove', 'team chat'])).stdout.trim()).toBe('removed webhook 2 "team chat"');
    expect((await cli(['webhook', 'remove', 'team chat'])).stderr.trim()).toBe('flakeboard: no webhook team chat');
  });

  it('queues the alerts of `import` with no server running, and `webhook drain` sends them signed', async () => {
    const secret = await addGeneric('alerts', '--events', 'new-flaky,broken-on-base');
    expect((await importRun('one.json', { a: 'passed', b: 'passed' }, '2026-11-01')).stdout).not.toContain('queued');
    const second = await importRun('two.json', { a: 'failed', b: 'flaky' }, '2026-11-02');
    expect(second.exitCode).toBe(0);
    expect(second.stdout).toContain('2 webhook alerts queued: a running `flakeboard serve` on this database sends them, or `flakeboard webhook drain`');
    expect(receiver.received).toEqual([]);
    const drain = await cli(['webhook', 'drain']);
    expect(drain.stdout.trim()).toBe('2 deliveries attempted; 0 waiting to be retried');
    const events = receiver.received.map((r) => {
      expect(verifySignature(secret, r.headers, r.body)).toBe('ok');
      return JSON.parse(r.body) as WebhookEvent;
    });
    expect(events.map((e) => `${e.event}: ${e.tests!.map((t) => t.title).join(',')}`).sort()).toEqual(['broken-on-base: a', 'new-flaky: b']);
  });

  it('lets `import` return while the server’s drain waits on a receiver that hangs', async () => {
    await addGeneric('alerts', '--events', 'new-flaky');
    receiver.script = ['hang', 'hang', 'hang'];
    await importRun('one.json', { a: 'passed', b: 'passed', c: 'passed' }, '2026-11-01');
    const serve = await startServe(db, { cwd: temp.dir });
    try {
      await importRun('two.json', { a: 'flaky', b: 'passed', c: 'passed' }, '2026-11-02');
      // The server's drain sends it within its interval; the receiver never answers.
      await receiver.waitFor(1);
      const started = performance.now();
      const third = await importRun('three.json', { a: 'passed', b: 'flaky', c: 'passed' }, '2026-11-03');
      const took = performance.now() - started;
      expect(third.exitCode).toBe(0);
      expect(third.stdout).toContain('1 webhook alert queued');
      // Well under the drain's 10 s send timeout: the import never waited on the receiver.
      expect(took).toBeLessThan(8_000);
      await receiver.waitFor(2);
      const log = await cli(['webhook', 'list', '--deliveries', '--json']);
      // Both wait: in flight, or after the first one's 10 s timeout, for its retry.
      expect((JSON.parse(log.stdout) as Array<{ state: string }>).map((d) => d.state)).toEqual(['pending', 'pending']);
    } finally {
      const stopped = await serve.stop();
      // Stopping aborts the hanging sends: it does not wait out their timeout.
      expect(stopped.ms).toBeLessThan(8_000);
    }
    // Nothing was lost or left claimed: the next server sends both.
    const after = await withStore(db, (s) => s.sqlite.prepare('SELECT state, claimed_by FROM webhook_deliveries ORDER BY id').all());
    expect(after).toEqual([{ state: 'pending', claimed_by: null }, { state: 'pending', claimed_by: null }]);
  });
});
