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
import { buildSqliteTestApp, signIn, smallReport, type SqliteTestApp } from '../../fixtures/testing/app.js';
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

describe('uploads still arriving', () => {
  it('are admitted up to ten full-size bodies; the next is a 503 at once, and room comes back when they go', async () => {
    const { port } = t.app.server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/api/upload`;
    const max = await signIn(t.app, 'max');
    const rita = await signIn(t.app, 'rita');
    // Two accounts: one alone may hold only half (below).
    for (let i = 0; i < 10; i++) await stalledUpload(port, (i % 2 === 0 ? max : rita).headers, 1024 * 1024);
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
  it('one account holds at most half: its sixth full-size body is a 503 while another account still uploads', async () => {
    const { port } = t.app.server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/api/upload`;
    const max = await signIn(t.app, 'max');
    const rita = await signIn(t.app, 'rita');
    for (let i = 0; i < 5; i++) await stalledUpload(port, max.headers, 1024 * 1024);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const body = (title: string) => JSON.stringify({ testResults: smallReport(title), metadata: { fileName: 'a.json' } });
    const refused = await fetch(url, { method: 'POST', headers: { ...max.headers, 'content-type': 'application/json' }, body: body('max sixth') });
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: string }).error).toBe(
      'Your 5 other uploads not yet answered hold 5 MB, as much as one account may; nothing was stored, try again in a minute',
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
