import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { strToU8, zipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, signIn, type TestApp } from '../../fixtures/testing/app.js';
import { API_TOKEN_PREFIX, hashToken, newToken } from '../auth/tokens.js';
import { TRACE_LINK_TTL_MS } from '../evidence/trace-link.js';
import { createApiToken } from '../store/accounts/api-tokens.js';
import type { EvidenceStore } from '../store/evidence/evidence-store.js';
import { FolderEvidenceStore } from '../store/evidence/folder-store.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';
import { defaultTraceViewer, type TraceViewer } from './trace-viewer.js';

const TRACE = readFileSync(new URL('../../fixtures/reports/evidence/output/checkout-applies-a-discount-code/trace.zip', import.meta.url));
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A real evidence folder holding these blobs. */
async function blobStore(...blobs: Uint8Array[]): Promise<EvidenceStore> {
  const folder = makeTempDir('trace-viewer-evidence-');
  folders.push(folder);
  const store = new FolderEvidenceStore(folder.dir);
  for (const bytes of blobs) await store.put(sha(bytes), bytes, bytes.length);
  return store;
}

const viewer = defaultTraceViewer();
let t: TestApp;
const folders: Array<{ cleanup(): void }> = [];
afterEach(async () => {
  await t?.close();
  for (const folder of folders.splice(0)) folder.cleanup();
});

async function app(options: { blobs?: Promise<EvidenceStore>; now?: () => number; traceViewer?: TraceViewer | null } = {}) {
  t = await buildTestApp({ evidence: await (options.blobs ?? blobStore(TRACE)), ...(options.now ? { now: options.now } : {}), traceViewer: options.traceViewer === undefined ? viewer : options.traceViewer });
  return t.app;
}

async function traceLink(hash: string, headers: Record<string, string>) {
  return t.app.inject({ method: 'POST', url: `/api/evidence/${hash}/trace-link`, headers });
}

describe("Playwright's trace viewer served by flakeboard", () => {
  it('is found in playwright-core (a checkout) with its version', () => {
    expect(viewer).not.toBeNull();
    expect(viewer!.playwrightVersion).toMatch(/^1\.\d+\.\d+/);
  });

  it('serves its pages with a policy that lets it work and keeps everything on this origin', async () => {
    await app();
    const page = await t.app.inject({ method: 'GET', url: '/trace/index.html' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('Playwright Trace Viewer');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("frame-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/https?:|\*|unsafe-eval/);
    // Its one inline script (the file:// notice) is allowed by its hash, nothing else inline.
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['cache-control']).toBe('no-cache');
    // The bare folder opens the viewer too.
    for (const url of ['/trace', '/trace/']) expect((await t.app.inject({ method: 'GET', url })).headers.location).toBe('/trace/index.html');
  });

  it('serves its service worker fresh and scoped to /trace/ only, and its hashed assets for good', async () => {
    await app();
    const worker = await t.app.inject({ method: 'GET', url: '/trace/sw.bundle.js' });
    expect(worker.statusCode).toBe(200);
    expect(worker.headers['content-type']).toMatch(/javascript/);
    expect(worker.headers['cache-control']).toBe('no-cache');
    expect(worker.headers['service-worker-allowed']).toBeUndefined();
    const script = /src="\.\/(index\.[^"]+\.js)"/.exec((await t.app.inject({ method: 'GET', url: '/trace/index.html' })).body)![1];
    const asset = await t.app.inject({ method: 'GET', url: `/trace/${script}` });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it("ships Playwright's licence and notices, as text", async () => {
    await app();
    for (const [file, words] of [['LICENSE', 'Apache License'], ['NOTICE', 'Playwright'], ['ThirdPartyNotices.txt', 'THIRD-PARTY']] as const) {
      const res = await t.app.inject({ method: 'GET', url: `/trace/${file}` });
      expect([file, res.statusCode]).toEqual([file, 200]);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.body).toContain(words);
    }
  });

  it('refuses paths outside its folder and says so when the viewer is not installed', async () => {
    await app();
    for (const url of ['/trace/../package.json', '/trace/%2e%2e/%2e%2e/package.json', '/trace/.hidden']) {
      expect([url, (await t.app.inject({ method: 'GET', url })).statusCode]).toEqual([url, expect.toSatisfy((code: number) => code === 403 || code === 404)]);
    }
    await t.close();
    await app({ traceViewer: null });
    const missing = await t.app.inject({ method: 'GET', url: '/trace/index.html' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('npx playwright show-trace');
    const max = await signIn(t.app, 'max');
    expect((await traceLink(sha(TRACE), max.headers)).statusCode).toBe(503);
  });
});

describe('signed trace links', () => {
  it('a member gets a link that opens the viewer on this one trace, and the viewer can fetch it without a session', async () => {
    await app();
    const max = await signIn(t.app, 'max');
    const res = await traceLink(sha(TRACE), max.headers);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ tracePlaywrightVersion: viewer!.playwrightVersion, viewerPlaywrightVersion: viewer!.playwrightVersion, newerThanViewer: false });
    expect(body.url).toMatch(/^\/trace\/index\.html\?trace=/);
    // The session token never goes into the link.
    expect(body.url).not.toContain(max.token);
    const tracePath = new URL(body.url, 'http://x').searchParams.get('trace')!;
    expect(tracePath).toMatch(new RegExp(`^/api/evidence/${sha(TRACE)}/trace\\.zip\\?expires=\\d+&signature=[\\w-]+$`));
    const zip = await t.app.inject({ method: 'GET', url: tracePath });
    expect(zip.statusCode).toBe(200);
    expect(zip.rawPayload.equals(TRACE)).toBe(true);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(zip.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(zip.headers['x-content-type-options']).toBe('nosniff');
    expect(zip.headers['cache-control']).toBe('no-store');
    expect(Date.parse(body.expiresAt) - Date.now()).toBeLessThanOrEqual(TRACE_LINK_TTL_MS);
  });

  it('a link stops working when it expires, when it is changed, or for another trace', async () => {
    let clock = Date.now();
    const other = zipSync({ 'trace.trace': strToU8('{"type":"context-options","version":8}\n') });
    await app({ blobs: blobStore(TRACE, other), now: () => clock });
    const max = await signIn(t.app, 'max');
    const tracePath = new URL((await traceLink(sha(TRACE), max.headers)).json().url, 'http://x').searchParams.get('trace')!;
    const fetchTrace = (path: string) => t.app.inject({ method: 'GET', url: path });
    expect((await fetchTrace(tracePath)).statusCode).toBe(200);

    const otherSha = tracePath.replace(sha(TRACE), sha(other));
    expect([(await fetchTrace(otherSha)).statusCode, (await fetchTrace(otherSha)).json().error]).toEqual([403, 'This trace link is not valid: open the trace again from flakeboard']);
    const expires = /expires=(\d+)/.exec(tracePath)![1]!;
    const later = tracePath.replace(`expires=${expires}`, `expires=${Number(expires) + 3_600_000}`);
    expect((await fetchTrace(later)).statusCode).toBe(403);
    const tampered = tracePath.replace(/signature=(.)/, (_m, c: string) => `signature=${c === 'A' ? 'B' : 'A'}`);
    expect((await fetchTrace(tampered)).statusCode).toBe(403);
    expect((await fetchTrace(tracePath.replace(/&signature=.*/, ''))).json().error).toMatch(/incomplete/);

    clock += TRACE_LINK_TTL_MS + 1;
    const expired = await fetchTrace(tracePath);
    expect([expired.statusCode, expired.json().error]).toEqual([403, 'This trace link has expired: open the trace again from flakeboard']);
  });

  it('nobody but a member gets a link: no session, a forged one, a write-only token; and no link to evidence that is not there', async () => {
    await app();
    for (const headers of [{}, { authorization: 'Bearer forged' }] as Array<Record<string, string>>) {
      expect((await traceLink(sha(TRACE), headers)).statusCode).toBe(401);
    }
    const max = await signIn(t.app, 'max');
    // A session's POST needs its XSRF token too.
    expect((await traceLink(sha(TRACE), { authorization: `Bearer ${max.token}` })).statusCode).toBe(403);
    // An API token that may only upload gets none; one that may read does (an agent, a script).
    const uploadOnly = newToken(API_TOKEN_PREFIX);
    const reader = newToken(API_TOKEN_PREFIX);
    await createApiToken(t.store, { name: 'ci', tokenHash: hashToken(uploadOnly), userId: 3, scopes: ['upload'] });
    await createApiToken(t.store, { name: 'agent', tokenHash: hashToken(reader), userId: 3, scopes: ['read'] });
    expect((await traceLink(sha(TRACE), { authorization: `Bearer ${uploadOnly}` })).statusCode).toBe(403);
    expect((await traceLink(sha(TRACE), { authorization: `Bearer ${reader}` })).statusCode).toBe(200);
    expect((await traceLink('0'.repeat(64), max.headers)).statusCode).toBe(404);
    expect((await traceLink('../../etc/passwd', max.headers)).statusCode).toBe(404);
    expect((await traceLink('ABC', max.headers)).statusCode).toBe(400);
  });

  it('a trace from a newer Playwright says so; a zip bomb or a damaged trace is refused with the reason', async () => {
    const newer = zipSync({ 'trace.trace': strToU8(`${JSON.stringify({ type: 'context-options', version: 99, playwrightVersion: '9.1.0' })}\n`) });
    const samePatch = zipSync({ 'trace.trace': strToU8(`${JSON.stringify({ type: 'context-options', version: 10, playwrightVersion: `${viewer!.playwrightVersion.split('.').slice(0, 2).join('.')}.99` })}\n`) });
    const bomb = zipSync({ 'trace.trace': new Uint8Array(80 * 1024 * 1024) });
    const damaged = strToU8('PK not really a zip');
    await app({ blobs: blobStore(newer, samePatch, bomb, damaged) });
    const max = await signIn(t.app, 'max');
    expect((await traceLink(sha(newer), max.headers)).json()).toMatchObject({ tracePlaywrightVersion: '9.1.0', newerThanViewer: true });
    expect((await traceLink(sha(samePatch), max.headers)).json()).toMatchObject({ newerThanViewer: false });
    const refused = await traceLink(sha(bomb), max.headers);
    expect([refused.statusCode, refused.json().error]).toEqual([422, 'This trace cannot be opened: the archive expands beyond 64 MB: refused, not unpacked']);
    expect((await traceLink(sha(damaged), max.headers)).json().error).toBe('This trace cannot be opened: not a zip archive');
  });
});
