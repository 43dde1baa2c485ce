/**
 * From the second attacker review: upload bodies are read whole into memory, and a member could
 * open any number of uploads that declare 100 MB and then send nothing (held until the 5-minute
 * request timeout), so the server's memory had no bound. Bodies in flight are now bounded by the
 * bytes they declare (ten full-size uploads); beyond, a 503 that `flakeboard upload` retries.
 */
import { connect, type Socket } from 'node:net';
import Database from 'better-sqlite3';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildSqliteTestApp, PASSWORD, signIn, smallReport, TEST_SCRYPT, type SqliteTestApp } from '../../fixtures/testing/app.js';
import { hashPassword } from '../auth/passwords.js';
import { createUser } from '../store/accounts/users.js';
import { MAX_QUEUED_UPLOADS } from '../writer/runner.js';

let t: SqliteTestApp;
let sockets: Socket[] = [];
beforeEach(async () => {
  t = await buildSqliteTestApp({ bodyLimit: 1024 * 1024 });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets = [];
  await t.close();
});

/** An upload that declares `bytes` and sends only its headers, as a slow client would. */
function stalledUpload(port: number, headers: Record<string, string>, bytes: number, path = '/api/upload'): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      const lines = [`POST ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Content-Type: application/json', `Content-Length: ${bytes}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
      socket.write(`${lines.join('\r\n')}\r\n\r\n{`);
      resolve(socket);
    });
    socket.on('error', reject);
    sockets.push(socket);
  });
}

/** Members beside the fixture's three, signed in. */
async function moreMembers(names: string[]) {
  const hash = await hashPassword(PASSWORD, TEST_SCRYPT);
  const signed = [];
  for (const username of names) {
    await createUser(t.store, { username, passwordHash: hash, role: 'member' });
    signed.push(await signIn(t.app, username));
  }
  return signed;
}

describe('uploads still arriving', () => {
  it('are admitted up to ten full-size bodies; the next is a 503 at once, and room comes back when they go', async () => {
    const { port } = t.app.server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/api/upload`;
    const max = await signIn(t.app, 'max');
    // Five accounts: one alone may hold only two full-size bodies, a fifth (below).
    const senders = [max, await signIn(t.app, 'rita'), ...(await moreMembers(['ann', 'bob', 'cy']))];
    for (let i = 0; i < 10; i++) await stalledUpload(port, senders[i % 5]!.headers, 1024 * 1024);
    // Let the server see all ten before the eleventh.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const body = JSON.stringify({ testResults: smallReport('admitted'), metadata: { fileName: 'a.json' } });
    const admin = await signIn(t.app, 'admin');
    const refused = await fetch(url, { method: 'POST', headers: { ...admin.headers, 'content-type': 'application/json' }, body });
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: string }).error).toBe('The server is receiving 10 MB of other uploads; nothing was stored, try again in a minute');
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stored = await fetch(url, { method: 'POST', headers: { ...max.headers, 'content-type': 'application/json' }, body });
    expect(stored.status).toBe(200);
  });

  // Third attacker review: one member could hold the whole budget and shut every other uploader out.
  it('one account holds at most a fifth: its third full-size body is a 503 while another account still uploads', async () => {
    const { port } = t.app.server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/api/upload`;
    const max = await signIn(t.app, 'max');
    const rita = await signIn(t.app, 'rita');
    for (let i = 0; i < 2; i++) await stalledUpload(port, max.headers, 1024 * 1024);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const body = (title: string) => JSON.stringify({ testResults: smallReport(title), metadata: { fileName: 'a.json' } });
    const refused = await fetch(url, { method: 'POST', headers: { ...max.headers, 'content-type': 'application/json' }, body: body('max third') });
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: string }).error).toBe(
      'Your 2 other uploads not yet answered hold 2 MB, as much as one account may; nothing was stored, try again in a minute',
    );
    const other = await fetch(url, { method: 'POST', headers: { ...rita.headers, 'content-type': 'application/json' }, body: body('rita') });
    expect(other.status).toBe(200);
  });

  // Third attacker review: the writer queues 64 uploads in all; one account's small uploads
  // waiting behind a big one could take every place.
  it('one account has at most half of the uploads the writer queues in flight; another account still uploads', async () => {
    const { port } = t.app.server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/api/upload`;
    const max = await signIn(t.app, 'max');
    const rita = await signIn(t.app, 'rita');
    for (let i = 0; i < MAX_QUEUED_UPLOADS / 2; i++) await stalledUpload(port, max.headers, 100);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const body = (title: string) => JSON.stringify({ testResults: smallReport(title), metadata: { fileName: 'a.json' } });
    const refused = await fetch(url, { method: 'POST', headers: { ...max.headers, 'content-type': 'application/json' }, body: body('one more') });
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: string }).error).toMatch(/^Your 32 other uploads not yet answered hold 0 MB, as much as one account may/);
    const other = await fetch(url, { method: 'POST', headers: { ...rita.headers, 'content-type': 'application/json' }, body: body('rita') });
    expect(other.status).toBe(200);
  });

  // Third attacker review: a body fully read was let go at once, though it waits for the writer in memory.
  it('an upload read whole but waiting for the writer still counts until it is answered', async () => {
    const { port } = t.app.server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/api/upload`;
    const max = await signIn(t.app, 'max');
    // Another process holds the write lock: the writer waits, its uploads stay unanswered.
    const other = new Database(t.target);
    other.exec('BEGIN IMMEDIATE');
    const send = (title: string, signal?: AbortSignal) =>
      fetch(url, { method: 'POST', signal, headers: { ...max.headers, 'content-type': 'application/json' }, body: JSON.stringify({ testResults: smallReport(title), metadata: { fileName: `${title}.json` } }) });
    try {
      const waiting = Array.from({ length: MAX_QUEUED_UPLOADS / 2 }, (_, i) => send(`waiting ${i}`));
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      // Before the fix it was admitted and waited for the writer with the others (here until the abort).
      const refused = await send('one more', AbortSignal.timeout(10_000));
      expect(refused.status).toBe(503);
      other.exec('ROLLBACK');
      expect((await Promise.all(waiting)).map((r) => r.status)).toEqual(Array(MAX_QUEUED_UPLOADS / 2).fill(200));
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
    }
    expect((await send('after')).status).toBe(200);
  });

  // Third attacker review: the bound matched the raw URL, and /api/%75pload reaches the same route.
  it('bounds uploads whose path is percent-encoded like any other', async () => {
    const { port } = t.app.server.address() as AddressInfo;
    const max = await signIn(t.app, 'max');
    const rita = await signIn(t.app, 'rita');
    for (let i = 0; i < 10; i++) await stalledUpload(port, (i % 2 === 0 ? max : rita).headers, 1024 * 1024, '/api/%75pload');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const body = JSON.stringify({ testResults: smallReport('encoded'), metadata: { fileName: 'a.json' } });
    const refused = await fetch(`http://127.0.0.1:${port}/api/%75pload`, { method: 'POST', headers: { ...rita.headers, 'content-type': 'application/json' }, body });
    expect(refused.status).toBe(503);
  });

  it('still admits many small uploads at once', async () => {
    const { port } = t.app.server.address() as AddressInfo;
    const max = await signIn(t.app, 'max');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`http://127.0.0.1:${port}/api/upload`, {
          method: 'POST',
          headers: { ...max.headers, 'content-type': 'application/json' },
          body: JSON.stringify({ testResults: smallReport(`shard ${i}`), metadata: { fileName: `s${i}.json` } }),
        }).then((r) => r.status),
      ),
    );
    expect(answers).toEqual(Array(20).fill(200));
  });
});

/** The status and body of the answer that comes back on a raw socket, once it closes. */
function answerOn(socket: Socket): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? 0), body: text.slice(text.indexOf('\r\n\r\n') + 4) }));
  });
}

describe('slow senders', () => {
  // Fourth attacker review: two accounts holding stalled uploads blocked every other upload for minutes.
  it('two stalled accounts do not hold the budget: a third account uploads at once', async () => {
    const { port } = t.app.server.address() as AddressInfo;
    const max = await signIn(t.app, 'max');
    const rita = await signIn(t.app, 'rita');
    // Each opens as many full-size bodies as the whole budget holds, and sends nothing.
    for (let i = 0; i < 10; i++) await stalledUpload(port, max.headers, 1024 * 1024);
    for (let i = 0; i < 10; i++) await stalledUpload(port, rita.headers, 1024 * 1024);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const admin = await signIn(t.app, 'admin');
    const body = JSON.stringify({ testResults: smallReport('third account'), metadata: { fileName: 'a.json' } });
    const stored = await fetch(`http://127.0.0.1:${port}/api/upload`, { method: 'POST', headers: { ...admin.headers, 'content-type': 'application/json' }, body });
    expect(stored.status).toBe(200);
  });

  it('a body that does not arrive, or arrives too slowly, is cut with an answer that says why, and its share comes back', async () => {
    await t.close();
    t = await buildSqliteTestApp({ bodyLimit: 1024 * 1024, uploadPace: { minBytesPerSecond: 4 * 1024, graceMs: 800, idleMs: 1500 } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const max = await signIn(t.app, 'max');
    // Nothing after the headers: cut at the end of the grace period, not at the request timeout.
    const silent = await stalledUpload(port, max.headers, 1024 * 1024);
    // A byte every 100 ms: 10 B/s, far under 4 KB/s.
    const dribbling = await stalledUpload(port, max.headers, 1024 * 1024);
    const drip = setInterval(() => dribbling.write(' '), 100);
    const started = performance.now();
    const [cutSilent, cutSlow] = await Promise.all([answerOn(silent), answerOn(dribbling)]);
    clearInterval(drip);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(cutSilent.status).toBe(408);
    expect(JSON.parse(cutSilent.body)).toEqual({ error: expect.stringMatching(/^The upload arrived at 0 KB\/s, slower than the 4 KB\/s the server waits for; nothing was stored\. Send it again over a faster connection\.$/) });
    expect(cutSlow.status).toBe(408);
    expect(JSON.parse(cutSlow.body).error).toMatch(/^The upload arrived at 0 KB\/s, slower than the 4 KB\/s/);
    // Fast, then stopped: the average is high, but no byte came for the idle time.
    const stopped = await stalledUpload(port, max.headers, 1024 * 1024);
    stopped.write(` ${'x'.repeat(200 * 1024)}`);
    const cutStopped = await answerOn(stopped);
    expect(cutStopped.status).toBe(408);
    expect(JSON.parse(cutStopped.body)).toEqual({ error: 'No byte of the upload arrived for 2 s; nothing was stored. Send it again.' });
    // The account's share came back: two full-size bodies fit again beside a small upload.
    const body = JSON.stringify({ testResults: smallReport('after the cut'), metadata: { fileName: 'a.json' } });
    const stored = await fetch(`http://127.0.0.1:${port}/api/upload`, { method: 'POST', headers: { ...max.headers, 'content-type': 'application/json' }, body });
    expect(stored.status).toBe(200);
    // An upload at a normal pace is untouched.
    expect((await t.store.sql.all('SELECT COUNT(*) AS n FROM runs'))).toEqual([{ n: 1 }]);
  });
});
