import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextLink, restCall } from './rest.js';

let server: Server;
let base: string;
const seen: Array<{ method: string; url: string; body: string; auth: string | undefined }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', body, auth: req.headers.authorization });
      // A renamed repository: GitHub answers 307 to the same API for a write.
      if (req.url === '/repos/old/name/issues/comments/1') return res.writeHead(307, { location: '/repositories/9/issues/comments/1' }).end();
      if (req.url === '/away') return res.writeHead(302, { location: `http://localhost:${(server.address() as AddressInfo).port}/stolen` }).end();
      if (req.url === '/loop') return res.writeHead(301, { location: '/loop' }).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, method: req.method, body }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('restCall', () => {
  it('follows a redirect on the API’s own origin with the same method and body', async () => {
    const answer = await restCall<{ method: string; body: string }>({ method: 'PATCH', url: new URL('/repos/old/name/issues/comments/1', base), headers: { authorization: 'Bearer t' }, body: { body: 'x' } });
    expect(answer.json).toMatchObject({ method: 'PATCH', body: '{"body":"x"}' });
    expect(answer.url.pathname).toBe('/repositories/9/issues/comments/1');
  });

  it('refuses a redirect to another origin, and a loop, without sending anything there', async () => {
    await expect(restCall({ method: 'GET', url: new URL('/away', base), headers: { authorization: 'Bearer t' } })).rejects.toThrow(/answered 302 with a redirect to http:\/\/localhost:\d+\/stolen, which is not followed/);
    expect(seen.some((s) => s.url === '/stolen')).toBe(false);
    await expect(restCall({ method: 'GET', url: new URL('/loop', base), headers: {} })).rejects.toThrow(/answered 301 with a redirect/);
    expect(seen.filter((s) => s.url === '/loop')).toHaveLength(4);
  });
});

describe('nextLink', () => {
  it('reads rel="next" from a Link header, and nothing else', () => {
    expect(nextLink('<https://api.github.com/x?page=2>; rel="next", <https://api.github.com/x?page=5>; rel="last"')).toBe('https://api.github.com/x?page=2');
    expect(nextLink('<https://api.github.com/x?page=1>; rel="prev"')).toBeNull();
    expect(nextLink(null)).toBeNull();
  });
});
