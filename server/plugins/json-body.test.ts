import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, signIn, smallReport, type Signed, type TestApp } from '../../fixtures/testing/app.js';
import { cpuMsOfAsync } from '../../fixtures/testing/thread-cpu.js';

let t: TestApp;
let max: Signed;
beforeEach(async () => {
  t = await buildTestApp();
  max = await signIn(t.app, 'max');
});
afterEach(() => t.close());

const runs = async () => (await t.store.sql.value<number>('SELECT count(*) AS n FROM runs'))!;
const body = JSON.stringify({ testResults: smallReport('utf-16'), metadata: { fileName: 'ps.json' } });
const utf16le = (text: string, bom: boolean) => Buffer.concat([Buffer.from(bom ? [0xff, 0xfe] : []), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string) => Buffer.from(text, 'utf16le').swap16();
const post = (payload: Buffer | string, contentType: string, url = '/api/upload') =>
  t.app.inject({ method: 'POST', url, headers: { ...max.headers, 'content-type': contentType }, payload });

describe('request bodies', () => {
  it('accepts UTF-16 uploads, named by charset or by a BOM', async () => {
    const cases: Array<[Buffer, string]> = [
      [utf16le(body, false), 'application/json; charset=utf-16le'],
      [utf16le(body, true), 'application/json; charset=UTF-16LE'],
      [utf16be(body), 'application/json; charset=utf-16be'],
      [utf16le(body, true), 'application/json'],
      [utf16le(body, true), 'application/json; charset=utf-16'],
    ];
    for (const [payload, contentType] of cases) {
      const res = await post(payload, contentType);
      expect([contentType, res.statusCode, res.json()]).toEqual([contentType, 200, expect.objectContaining({ testsProcessed: 2 })]);
    }
    // The same content each time: one run and its duplicates.
    expect(await runs()).toBe(cases.length);
  });

  it('refuses a charset it does not read, by name', async () => {
    const res = await post(Buffer.from(body, 'latin1'), 'application/json; charset=iso-8859-1');
    expect([res.statusCode, res.json()]).toEqual([415, { error: 'Unsupported charset "iso-8859-1": send the JSON as UTF-8 or UTF-16' }]);
    const login = await post('{"username":"max","password":"x"}', 'application/json; charset=shift_jis', '/api/auth/login');
    expect([login.statusCode, login.json().error]).toEqual([415, 'Unsupported charset "shift_jis": send the JSON as UTF-8 or UTF-16']);
    expect(await runs()).toBe(0);
  });

  it('answers text/plain with 415 that says to send application/json', async () => {
    const res = await post(body, 'text/plain');
    expect([res.statusCode, res.json()]).toEqual([415, { error: 'Unsupported content type "text/plain": send application/json' }]);
    expect(await runs()).toBe(0);
  });

  it('says where invalid JSON breaks, by line and column, for an upload and for any other call', async () => {
    const broken = '{\n  "testResults": {\n    "config": {}\n    "suites": []\n  }\n}';
    const res = await post(broken, 'application/json');
    expect([res.statusCode, res.json()]).toEqual([400, { error: "Invalid JSON: Expected ',' or '}' after property value at line 4, column 5" }]);
    const login = await post('{"username": "max",\n "password": }', 'application/json', '/api/auth/login');
    expect([login.statusCode, login.json().error]).toEqual([400, "Invalid JSON: Unexpected token '}' at line 2, column 14"]);
    // UTF-16 text is counted in characters, not bytes.
    const wide = await post(utf16le(broken, true), 'application/json; charset=utf-16le');
    expect(wide.json().error).toBe("Invalid JSON: Expected ',' or '}' after property value at line 4, column 5");
    expect(await runs()).toBe(0);
  });

  it('refuses an empty upload and a body that is not an object, as the schema did', async () => {
    expect((await post('', 'application/json')).json()).toEqual({ error: 'The request body is empty: send a JSON object' });
    expect((await post('[1]', 'application/json')).json()).toEqual({ error: 'Invalid request: body must be object' });
    expect((await post('{"testResults":{},"metadata":{"fileSize":-1}}', 'application/json')).json()).toEqual({ error: 'Invalid request: body/metadata/fileSize must be a whole number from 0 to 2^53' });
    expect((await post('{"testResults":{},"metadata":{"project":7}}', 'application/json')).json()).toEqual({ error: 'Invalid request: body/metadata/project must be string,null' });
    expect(await runs()).toBe(0);
  });
});

// From the second attacker review: 2 MB of "[" sent to the sign-in (no account needed) held the
// server's thread about a second per request inside JSON.parse, with no rate limit before it.
describe('hostile JSON in small bodies', () => {
  // The server's thread is this one: its CPU, not the process's (fixtures/testing/thread-cpu.ts).
  const cpuMs = cpuMsOfAsync;
  const deep = '['.repeat(1_000_000) + ']'.repeat(1_000_000);

  it('refuses a body nested past 64 levels before parsing it, naming the limit', async () => {
    let res!: Awaited<ReturnType<typeof post>>;
    const ms = await cpuMs(async () => (res = await post(`{"tests":${deep},"counts":{},"days":1}`, 'application/json', '/api/check')));
    expect([res.statusCode, res.json()]).toEqual([400, { error: 'Invalid JSON: nested deeper than 64 levels' }]);
    // About 1,000 ms of CPU when JSON.parse read it; a scan takes a few.
    expect(ms).toBeLessThan(400);
    const fine = await post(`{"tests":[],"counts":{"tests":0,"failed":0,"flaky":0,"skipped":0},"days":1,"base":${'['.repeat(10)}${']'.repeat(10)}}`, 'application/json', '/api/check');
    expect(fine.json().error).toMatch(/^Invalid request: body\/base/);
  });

  it('reads at most 64 KB of an anonymous sign-in', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload: deep });
    expect([res.statusCode, res.json()]).toEqual([413, { error: 'The request body is larger than the limit of 64 KB' }]);
    const ok = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'max', password: 'correct horse battery' } });
    expect(ok.statusCode).toBe(200);
  });
});
