import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../../fixtures/testing/webhook-receiver.js';
import { testEvent } from './config.js';
import { checkWebhookUrl, sendEvent } from './send.js';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

// A cloud's metadata service (169.254.169.254, fd00:ec2::254) hands out credentials to whatever
// on the host asks: a hook that names it would post there, and the answer's status and error
// would come back to the admin's screen. 0.0.0.0 and :: reach this host's own services.
const LINK_LOCAL = [
  'http://169.254.169.254/latest/meta-data/',
  'http://2852039166/latest/meta-data/',
  'http://0xa9.0xfe.0xa9.0xfe/',
  'http://[fe80::1]/hook',
  'http://[::ffff:169.254.169.254]/hook',
  'http://[fd00:ec2::254]/latest/meta-data/',
  'http://0.0.0.0:9/hook',
  'http://0/hook',
  'http://[::]:9/hook',
];

describe('webhook destinations', () => {
  it('refuses link-local, metadata and unspecified addresses, in every spelling, naming the problem', () => {
    for (const url of LINK_LOCAL) expect(checkWebhookUrl(url), url).toMatch(/link-local|metadata|unspecified/);
    for (const url of ['https://hooks.slack.com/services/T/B/X', 'http://127.0.0.1:9/hook', 'http://10.1.2.3/hook', 'http://[::1]:9/hook', 'http://169.255.0.1/']) {
      expect(checkWebhookUrl(url), url).toBeNull();
    }
  });

  it('does not post to an unspecified address, which reaches this host, even for a hook stored before the check', async () => {
    const port = new URL(receiver.url).port;
    const result = await sendEvent({ kind: 'generic', url: `http://0.0.0.0:${port}/hook`, secret: null }, testEvent(Date.now()), { timeoutMs: 2000 });
    expect(result).toMatchObject({ ok: false, status: null, permanent: true });
    expect(result.error).toMatch(/unspecified/);
    expect(receiver.received).toHaveLength(0);
  });

  it('still posts to a receiver on loopback, found by name', async () => {
    const port = new URL(receiver.url).port;
    expect((await sendEvent({ kind: 'generic', url: `http://localhost:${port}/ok`, secret: null }, testEvent(Date.now()), { timeoutMs: 2000 })).ok).toBe(true);
    expect(receiver.received.map((r) => r.path)).toEqual(['/ok']);
  });
});
