import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signIn, type Signed, type TestApp } from '../../fixtures/testing/app.js';
import { API_DOCS_PREFIX, isZodSchema, OPENAPI_PATH, registeredRoutes } from './openapi.js';

let t: TestApp;
let member: Signed;

beforeAll(async () => {
  t = await buildTestApp();
  member = await signIn(t.app, 'max');
});
afterAll(() => t.close());

interface Operation {
  responses?: Record<string, unknown>;
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: unknown;
}
type Document = { openapi: string; info: { title: string; version: string }; paths: Record<string, Record<string, Operation>> };

const document = async () => {
  const res = await t.app.inject({ method: 'GET', url: OPENAPI_PATH, headers: member.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Document;
};

// The API's routes: HEAD twins Fastify adds for every GET, and the reference page's own files, are not operations.
const apiRoutes = () => registeredRoutes(t.app).filter((r) => r.url.startsWith('/api/') && r.method !== 'HEAD' && !r.url.startsWith(API_DOCS_PREFIX) && r.url !== OPENAPI_PATH);
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{*}');

describe('the OpenAPI document', () => {
  it('is a member call: anonymous callers are refused', async () => {
    expect((await t.app.inject({ method: 'GET', url: OPENAPI_PATH })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: `${API_DOCS_PREFIX}/json` })).statusCode).toBe(401);
  });

  it('has a reference page whose files open without a session, and which sends the stored session with its calls', async () => {
    const page = await t.app.inject({ method: 'GET', url: `${API_DOCS_PREFIX}/` });
    expect([page.statusCode, page.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
    expect(page.body).toContain('<title>flakeboard API reference</title>');
    const script = await t.app.inject({ method: 'GET', url: `${API_DOCS_PREFIX}/static/swagger-initializer.js` });
    expect(script.statusCode).toBe(200);
    expect(script.body).toContain('localStorage.getItem("auth_token")');
    // The server's own policy, no inline script: the page loads its scripts from this origin.
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect((await t.app.inject({ method: 'GET', url: `${API_DOCS_PREFIX}/json`, headers: member.headers })).statusCode).toBe(200);
  });

  it('is OpenAPI 3: a version, info, and paths whose every operation has responses', async () => {
    const doc = await document();
    expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(doc.info).toMatchObject({ title: 'flakeboard API', version: expect.any(String) });
    const methods = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
    for (const [path, item] of Object.entries(doc.paths)) {
      expect(path.startsWith('/'), path).toBe(true);
      for (const [method, operation] of Object.entries(item)) {
        expect(methods.has(method), `${method} ${path}`).toBe(true);
        expect(Object.keys(operation.responses ?? {}).length, `${method} ${path} has responses`).toBeGreaterThan(0);
        // Every {name} of the path is a declared path parameter.
        for (const name of path.match(/\{(\w+)\}/g) ?? []) {
          expect(operation.parameters?.some((p) => p.in === 'path' && `{${p.name}}` === name), `${method} ${path} declares ${name}`).toBe(true);
        }
      }
    }
  });

  it('holds every route the app registers', async () => {
    const doc = await document();
    const routes = apiRoutes();
    expect(routes.length).toBeGreaterThan(30);
    const missing = routes.filter((r) => !doc.paths[openApiPath(r.url)]?.[r.method.toLowerCase()]).map((r) => `${r.method} ${r.url}`);
    expect(missing).toEqual([]);
  });
});

describe('every route declares its schemas', () => {
  it('has a Zod schema of its answers (and of its params, query and JSON body where it takes them)', () => {
    const undescribed = apiRoutes()
      .filter((r) => !(r.schema?.response && Object.values(r.schema.response).some(isZodSchema)))
      .map((r) => `${r.method} ${r.url}`);
    expect(undescribed).toEqual([]);
  });

  it('takes its path parameters, query and body through the schema: no route reads one it did not declare', () => {
    for (const r of apiRoutes()) {
      const names = r.url.match(/:(\w+)/g)?.map((n) => n.slice(1)) ?? [];
      if (names.length > 0) expect(isZodSchema(r.schema?.params), `${r.method} ${r.url} params`).toBe(true);
    }
  });
});

describe('a request its schema refuses', () => {
  it('is a 400 that names the part, the field and the rule', async () => {
    const error = async (url: string) => {
      const res = await t.app.inject({ method: 'GET', url, headers: member.headers });
      expect(res.statusCode, url).toBe(400);
      return (res.json() as { error: string }).error;
    };
    expect(await error('/api/dashboard?days=5000')).toBe('Invalid request: querystring/days must be <= 3650');
    expect(await error('/api/dashboard?limit=0')).toBe('Invalid request: querystring/limit must be >= 1');
    expect(await error('/api/slow-tests?days=soon')).toBe('Invalid request: querystring/days must be number');
    // Empty is not 0: `?days=` would otherwise mean all history, `?page=` a page that is not there.
    expect(await error('/api/dashboard?days=')).toBe('Invalid request: querystring/days must be number');
    expect(await error('/api/flaky-tests?days=%20')).toBe('Invalid request: querystring/days must be number');
    expect(await error('/api/slow-tests?page=')).toBe('Invalid request: querystring/page must be number');
    expect(await error('/api/recent-uploads?pageSize=')).toBe('Invalid request: querystring/pageSize must be number');
    expect(await error('/api/uploads/%20')).toBe('Invalid request: params/id must be number');
    expect(await error('/api/flaky-tests?sort=newest')).toBe('Invalid request: querystring/sort must be one of "score", "pass_rate", "runs", "last_failure", "open_age"');
    expect(await error('/api/flaky-tests?critical=yes')).toBe('Invalid request: querystring/critical must be one of "true", "false"');
    expect(await error(`/api/flaky-tests?search=${'x'.repeat(201)}`)).toBe('Invalid request: querystring/search must NOT have more than 200 characters');
    expect(await error('/api/flaky-trends?pageSize=201')).toBe('Invalid request: querystring/pageSize must be <= 200');
    // A check the route makes itself keeps its own words.
    expect(await error('/api/flaky-trends?file=a.spec.ts')).toBe("file and test go together: give both to ask for one test's trend records");
  });

  it('describes a streamed body without parsing it: the upload takes its report as bytes', async () => {
    const doc = await document();
    const upload = doc.paths['/api/upload']!.post!;
    expect(upload.requestBody).toMatchObject({ content: { 'application/json': { schema: { type: 'string', format: 'binary' } } } });
    const res = await t.app.inject({ method: 'PATCH', url: '/api/uploads/1/review', headers: member.headers, payload: { action: 'keep' } });
    // The role is checked before the body: a member may not review.
    expect(res.statusCode).toBe(403);
    const rita = await signIn(t.app, 'rita');
    const bad = await t.app.inject({ method: 'PATCH', url: '/api/uploads/1/review', headers: rita.headers, payload: { action: 'keep' } });
    expect([bad.statusCode, bad.json()]).toEqual([400, { error: 'Invalid request: body/action must be one of "approve", "reject"' }]);
    const missing = await t.app.inject({ method: 'POST', url: '/api/uploads/bulk-review', headers: rita.headers, payload: {} });
    expect([missing.statusCode, missing.json()]).toEqual([400, { error: "Invalid request: body must have required property 'uploads'" }]);
    const badId = await t.app.inject({ method: 'GET', url: '/api/uploads/abc', headers: member.headers });
    expect([badId.statusCode, badId.json()]).toEqual([400, { error: 'Invalid request: params/id must be number' }]);
  });

  it('describes binary answers as bytes of their content types, and the evidence upload as a stream', async () => {
    const doc = await document();
    const binary = { schema: { type: 'string', format: 'binary' } };
    const blob = doc.paths['/api/evidence/{sha256}']!;
    expect(blob.get!.responses!['200']).toMatchObject({ content: { 'image/png': binary, 'video/webm': binary, 'application/octet-stream': binary } });
    expect(blob.get!.responses!['304']).not.toHaveProperty('content');
    expect(blob.put!.requestBody).toMatchObject({ content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } });
    expect(doc.paths['/api/evidence/{sha256}/trace.zip']!.get!.responses!['200']).toMatchObject({ content: { 'application/zip': binary } });
    // The AI analysis's body is described though the worker, not Fastify, reads and checks it.
    expect(doc.paths['/api/ai-analysis']!.post!.requestBody).toMatchObject({ content: { 'application/json': { schema: { required: ['testSummary', 'recentResults'] } } } });
  });

  it('applies the defaults and types of the query: a page without page is the bare list', async () => {
    const bare = await t.app.inject({ method: 'GET', url: '/api/flaky-tests?critical=true&pageSize=3', headers: member.headers });
    expect([bare.statusCode, Array.isArray(bare.json()), bare.headers['x-total-count']]).toEqual([200, true, '0']);
    const paged = await t.app.inject({ method: 'GET', url: '/api/flaky-tests?page=1', headers: member.headers });
    expect(paged.json()).toMatchObject({ items: [], total: 0, page: 1, pageSize: 50 });
  });
});
