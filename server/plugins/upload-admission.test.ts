/**
 * From the second attacker review: upload bodies are read whole into memory, and a member could
 * open any number of uploads that declare 100 MB and then send nothing (held until the 5-minute
 * request timeout), so the server's memory had no bound. Bodies in flight are now bounded by the
 * bytes they declare (ten full-size uploads); beyond, a 503 that `flakeboard upload` retries.
 */
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, signIn, smallReport, type TestApp } from '../../fixtures/testing/app.js';

let t: TestApp;
let sockets: Socket[] = [];
beforeEach(async () => {
  t = await buildTestApp({ bodyLimit: 1024 * 1024 });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets = [];
  await t.close();
});

/** An upload that declares `bytes` and sends only its headers, as a slow client would. */
function stalledUpload(port: number, headers: Record<string, string>, bytes: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      const lines = [`POST /api/upload HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Content-Type: application/json', `Content-Length: ${bytes}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
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
    for (let i = 0; i < 10; i++) await stalledUpload(port, max.headers, 1024 * 1024);
    // Let the server see all ten before the eleventh.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const body = JSON.stringify({ testResults: smallReport('admitted'), metadata: { fileName: 'a.json' } });
    const refused = await fetch(url, { method: 'POST', headers: { ...max.headers, 'content-type': 'application/json' }, body });
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: string }).error).toBe('The server is receiving 10 MB of other uploads; nothing was stored, try again in a minute');
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stored = await fetch(url, { method: 'POST', headers: { ...max.headers, 'content-type': 'application/json' }, body });
    expect(stored.status).toBe(200);
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
