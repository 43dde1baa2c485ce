import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postToServer } from './server-client.js';
import { uploadReport, UploadError } from './upload-client.js';
import type { UploadBody } from './upload-body.js';

// Two local servers: one answers every call with a redirect to the other, which records what
// reaches it. Nothing the CLI sends to the first may arrive at the second.
let redirecting: Server;
let elsewhere: Server;
let elsewhereUrl = '';
let redirectingUrl = '';
const arrived: Array<{ url: string; authorization?: string; bytes: number }> = [];

const listen = (server: Server) => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
const drain = (request: IncomingMessage) => new Promise<number>((resolve) => {
  let n = 0;
  request.on('data', (chunk: Buffer) => (n += chunk.length));
  request.on('end', () => resolve(n));
});

beforeAll(async () => {
  elsewhere = createServer(async (request, response) => {
    arrived.push({ url: request.url ?? '', authorization: request.headers.authorization, bytes: await drain(request) });
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"runId":1}');
  });
  elsewhereUrl = await listen(elsewhere);
  redirecting = createServer(async (request, response) => {
    await drain(request);
    response.writeHead(307, { location: `${elsewhereUrl}${request.url}` }).end();
  });
  redirectingUrl = await listen(redirecting);
});

afterAll(() => {
  redirecting.close();
  elsewhere.close();
});

describe('the CLI follows no redirect of the server', () => {
  it('check --server: refuses with the redirect named, and nothing reaches the other address', async () => {
    await expect(postToServer(redirectingUrl, 'api/check', 'fbt_secret', { report: 'x'.repeat(1000) })).rejects.toThrow(
      `the server at ${redirectingUrl} answered 307 with a redirect to ${elsewhereUrl}/api/check, which is not followed`,
    );
    expect(arrived).toEqual([]);
  });

  it('upload: refuses at once, without retrying, and sends nothing elsewhere', async () => {
    const bytes = Buffer.from('{"testResults":{"suites":[]},"metadata":{}}');
    const body: UploadBody = { length: bytes.length, open: async function* () { yield bytes; } };
    const error = await uploadReport(body, { server: redirectingUrl, token: 'fbt_secret', retries: 3, retryDelayMs: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UploadError);
    expect((error as UploadError).message).toContain('answered 307 with a redirect');
    expect((error as UploadError).fatal).toBe(true);
    expect(arrived).toEqual([]);
  });
});
