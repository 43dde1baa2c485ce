import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AttemptEvidence } from '../../core/api/evidence.js';
import type { UploadDetailResponse } from '../../core/api/uploads.js';
import { buildTestApp, signIn, smallReport, type Signed, type TestApp } from '../../fixtures/testing/app.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';
import { FolderEvidenceStore } from '../store/evidence/folder-store.js';

const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const PNG = Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'binary'), Buffer.alloc(1000, 7)]);

let t: TestApp;
let temp: ReturnType<typeof makeTempDir>;
let evidence: FolderEvidenceStore;
let max: Signed;

beforeEach(async () => {
  temp = makeTempDir('flakeboard-evidence-route-');
  evidence = new FolderEvidenceStore(join(temp.dir, 'evidence'));
  t = await buildTestApp({ evidence, evidenceMaxBytes: 4096 });
  max = await signIn(t.app, 'max');
});
afterEach(async () => {
  await t.close();
  temp.cleanup();
});

const put = (bytes: Buffer, type: string, hash = sha(bytes), headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'PUT', url: `/api/evidence/${hash}`, headers: { ...max.headers, 'content-type': type, ...headers }, payload: bytes });
const get = (path: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: path, headers: { authorization: max.headers.authorization!, ...headers } });

describe('PUT /api/evidence/{sha256}', () => {
  it('stores a blob checked against its hash, and GET sends it back inline with the sandbox headers', async () => {
    const stored = await put(PNG, 'image/png');
    expect(stored.statusCode).toBe(201);
    const res = await get(`/api/evidence/${sha(PNG)}`);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(PNG)).toBe(true);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe("sandbox; default-src 'none'");
    expect(res.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(res.headers['content-disposition']).toBe('inline');
    expect(res.headers['accept-ranges']).toBe('bytes');
    const download = await get(`/api/evidence/${sha(PNG)}?download=1&name=../../shot%20one.png`);
    expect(download.headers['content-disposition']).toBe('attachment; filename="shot-one.png"');
  });

  it('takes any bytes under any type, unparsed, and answers a repeat ask for them with a bodiless 304', async () => {
    const notJson = Buffer.from('{ not json at all');
    const stored = await put(notJson, 'application/json');
    expect([stored.statusCode, stored.json()]).toEqual([201, { sha256: sha(notJson), size: notJson.length }]);
    const again = await get(`/api/evidence/${sha(notJson)}`, { 'if-none-match': `"${sha(notJson)}"` });
    expect([again.statusCode, again.body, again.headers.etag]).toEqual([304, '', `"${sha(notJson)}"`]);
    const badHash = await put(notJson, 'image/png', 'abc');
    expect([badHash.statusCode, badHash.json()]).toEqual([400, { error: 'Invalid request: params/sha256 must match pattern "^[0-9a-f]{64}$"' }]);
  });

  it('answers ranges (206) and refuses ranges past the end (416)', async () => {
    await put(PNG, 'video/webm');
    const part = await get(`/api/evidence/${sha(PNG)}`, { range: 'bytes=8-17' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 8-17/${PNG.length}`);
    expect(part.rawPayload.equals(PNG.subarray(8, 18))).toBe(true);
    const tail = await get(`/api/evidence/${sha(PNG)}`, { range: 'bytes=-4' });
    expect(tail.rawPayload.equals(PNG.subarray(PNG.length - 4))).toBe(true);
    const past = await get(`/api/evidence/${sha(PNG)}`, { range: `bytes=${PNG.length}-` });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${PNG.length}`);
  });

  it('offers HTML and SVG as downloads, never as a page of flakeboard', async () => {
    const html = Buffer.from('<script>fetch("/api/users")</script>');
    await put(html, 'text/html; charset=utf-8');
    const res = await get(`/api/evidence/${sha(html)}`);
    expect(res.headers['content-type']).toBe('text/html');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="evidence-[0-9a-f]{12}\.html"$/);
    expect(res.headers['content-security-policy']).toBe("sandbox; default-src 'none'");
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    await put(svg, 'image/svg+xml');
    expect((await get(`/api/evidence/${sha(svg)}`)).headers['content-disposition']).toMatch(/^attachment/);
    // SVG markup under another image or video type of the uploader's choosing (a +xml type a
    // browser may treat as an XML document, or one it does not know) is a download too.
    for (const type of ['image/x-foo+xml', 'image/vnd.svg+xml', 'video/x+xml', 'image/x-unknown']) {
      const markup = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg"><text>${type}</text></svg>`);
      expect((await put(markup, type)).statusCode).toBe(201);
      const res = await get(`/api/evidence/${sha(markup)}`);
      expect([type, res.headers['content-type'], res.headers['content-disposition']]).toEqual([type, type, expect.stringMatching(/^attachment; filename="evidence-[0-9a-f]{12}"$/)]);
    }
  });

  it('stores nothing for bytes that do not match their hash, an oversized blob or one cut off', async () => {
    const wrong = await put(PNG, 'image/png', sha('something else'));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatch(/nothing was stored/);
    expect(await evidence.has(sha('something else'))).toBe(false);
    const big = Buffer.alloc(5000, 1);
    const tooBig = await put(big, 'image/png');
    expect(tooBig.statusCode).toBe(413);
    expect(await evidence.has(sha(big))).toBe(false);

    // A real connection that promises 2,000 bytes and goes away after 100.
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = Number(new URL(address).port);
    const blob = Buffer.alloc(2000, 3);
    await new Promise<void>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(`PUT /api/evidence/${sha(blob)} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${max.headers.authorization}\r\nX-XSRF-TOKEN: ${max.xsrf}\r\nCookie: XSRF-TOKEN=${max.xsrf}\r\nContent-Type: image/png\r\nContent-Length: 2000\r\n\r\n`);
        socket.write(blob.subarray(0, 100), () => setTimeout(() => socket.destroy(), 100));
      });
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await evidence.has(sha(blob))).toBe(false);
    expect(readdirSync(join(temp.dir, 'evidence', '.partial'))).toEqual([]);
    expect((await get(`/api/evidence/${sha(blob)}`)).statusCode).toBe(404);
  });

  it('cannot be made to store more than the limit by how the bytes are framed on a real connection', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = Number(new URL(address).port);
    const big = Buffer.alloc(10_000, 5);
    const head = (extra: string) =>
      `PUT /api/evidence/${sha(big)} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${max.headers.authorization}\r\nX-XSRF-TOKEN: ${max.xsrf}\r\nCookie: XSRF-TOKEN=${max.xsrf}\r\nContent-Type: image/png\r\nConnection: close\r\n${extra}\r\n`;
    const chunked = `${big.length.toString(16)}\r\n${big.toString('latin1')}\r\n0\r\n\r\n`;
    /** The status line the server answered with, or what ended the connection. */
    const raw = (request: string) =>
      new Promise<string>((resolve) => {
        let answer = '';
        const socket = connect(port, '127.0.0.1', () => socket.write(request, 'latin1'));
        socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
        socket.on('close', () => resolve(answer.split('\r\n')[0] || 'closed without an answer'));
        socket.on('error', () => resolve('reset'));
      });
    // No length announced: the limit cannot be checked before reading, so nothing is read.
    expect(await raw(head('Transfer-Encoding: chunked\r\n') + chunked)).toBe('HTTP/1.1 411 Length Required');
    // A small length beside chunked framing (request smuggling's trick): refused by the parser.
    expect(await raw(head('Transfer-Encoding: chunked\r\nContent-Length: 100\r\n') + chunked)).toMatch(/^HTTP\/1\.1 400/);
    // A small length and the whole blob after it: only the announced bytes are read, which do not match the hash.
    expect(await raw(head('Content-Length: 100\r\n') + big.toString('latin1'))).toMatch(/^HTTP\/1\.1 400/);
    // Two lengths, a small one first.
    expect(await raw(head('Content-Length: 100\r\nContent-Length: 10000\r\n') + big.toString('latin1'))).toMatch(/^HTTP\/1\.1 400/);
    expect(await evidence.has(sha(big))).toBe(false);
    // The parser can answer and close before the handler's write has ended; that write's partial
    // file goes when its stream errors, moments later, not before the client hears back.
    await expect.poll(() => readdirSync(join(temp.dir, 'evidence', '.partial')), { timeout: 5_000 }).toEqual([]);
  });

  it('is for members only, and names blobs by SHA-256 alone', async () => {
    await put(PNG, 'image/png');
    expect((await t.app.inject({ method: 'GET', url: `/api/evidence/${sha(PNG)}` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'PUT', url: `/api/evidence/${sha(PNG)}`, headers: { 'content-type': 'image/png' }, payload: PNG })).statusCode).toBe(401);
    expect((await get('/api/evidence/..%2F..%2Fetc%2Fpasswd')).statusCode).toBe(400);
    expect((await get(`/api/evidence/${sha('never stored')}`)).statusCode).toBe(404);
    expect((await get(`/api/evidence/${sha(PNG).toUpperCase()}`)).statusCode).toBe(400);
  });
});

describe('an upload names its evidence by hash', () => {
  it('asks which blobs are missing, and records each attachment as stored or, never sent, not stored', async () => {
    await put(PNG, 'image/png');
    const notSent = sha('never sent');
    const missing = await t.app.inject({ method: 'POST', url: '/api/evidence/missing', headers: max.headers, payload: { sha256: [sha(PNG), notSent, notSent] } });
    expect(missing.json()).toEqual({ missing: [notSent], maxBytes: 4096 });
    const report = smallReport('with evidence', 'failed');
    for (const test of report.suites[0]!.specs[0]!.tests) {
      (test.results[0] as Record<string, unknown>).attachments = [
        { name: 'screenshot', contentType: 'image/png', sha256: sha(PNG), path: '/etc/passwd' },
        { name: 'trace', contentType: 'application/zip', sha256: notSent },
        { name: 'elsewhere', contentType: 'text/plain', path: '/etc/passwd' },
      ];
    }
    const upload = await t.app.inject({ method: 'POST', url: '/api/upload', headers: max.headers, payload: { testResults: report } });
    expect(upload.statusCode).toBe(200);
    const detail = (await get(`/api/uploads/${upload.json().runId}`)).json() as UploadDetailResponse;
    const attempts: AttemptEvidence[] = detail.testResults[0]!.attempts;
    expect(attempts).toEqual([
      {
        retry: 0,
        status: 'failed',
        duration_ms: 1200,
        attachments: [
          { name: 'screenshot', contentType: 'image/png', kind: 'screenshot', sha256: sha(PNG), size: PNG.length, state: 'stored' },
          { name: 'trace', contentType: 'application/zip', kind: 'trace', sha256: null, size: null, state: 'not-stored' },
        ],
      },
    ]);
  });
});

describe('an object store that is down', () => {
  it('answers 503 to a blob and keeps the run that names it, recorded as not stored', async () => {
    const { startTestS3, useS3rverCredentials } = await import('../../fixtures/testing/s3-server.js');
    const { S3EvidenceStore } = await import('../store/evidence/s3-store.js');
    useS3rverCredentials();
    const s3 = await startTestS3();
    const bucket = new S3EvidenceStore({ bucket: s3.bucket, prefix: 'team/', endpoint: s3.endpoint });
    const down = await buildTestApp({ evidence: bucket });
    try {
      const member = await signIn(down.app, 'max');
      const ok = await down.app.inject({ method: 'PUT', url: `/api/evidence/${sha(PNG)}`, headers: { ...member.headers, 'content-type': 'image/png' }, payload: PNG });
      expect(ok.statusCode).toBe(201);
      expect((await down.app.inject({ method: 'GET', url: `/api/evidence/${sha(PNG)}`, headers: { authorization: member.headers.authorization! } })).rawPayload.equals(PNG)).toBe(true);
      await s3.close();
      const other = Buffer.from('sent while the bucket is down');
      const refused = await down.app.inject({ method: 'PUT', url: `/api/evidence/${sha(other)}`, headers: { ...member.headers, 'content-type': 'image/png' }, payload: other });
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('5');
      expect(refused.json().error).toMatch(/evidence store cannot be reached.*nothing was stored/);
      const report = smallReport('bucket down', 'failed');
      for (const test of report.suites[0]!.specs[0]!.tests) (test.results[0] as Record<string, unknown>).attachments = [{ name: 'screenshot', contentType: 'image/png', sha256: sha(other) }];
      const upload = await down.app.inject({ method: 'POST', url: '/api/upload', headers: member.headers, payload: { testResults: report } });
      expect(upload.statusCode).toBe(200);
      const detail = (await down.app.inject({ method: 'GET', url: `/api/uploads/${upload.json().runId}`, headers: { authorization: member.headers.authorization! } })).json() as UploadDetailResponse;
      expect(detail.testResults[0]!.attempts[0]!.attachments.map((a) => a.state)).toEqual(['not-stored']);
    } finally {
      await down.close();
      await bucket.close();
      await s3.close();
    }
  });
});
