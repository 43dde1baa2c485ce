import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import Database from 'better-sqlite3';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Of } from '../../server/store/evidence/hashing.js';
import { buildEvidenceDb } from '../../fixtures/testing/evidence-db.js';
import { openLocalSource } from '../local-source.js';
import { createMcpServer } from '../server.js';
import type { HistorySource } from '../source.js';

// The tool over a real database and evidence folder: the evidence suite's real run.
let built: Awaited<ReturnType<typeof buildEvidenceDb>>;
let source: HistorySource;
let client: Client;

// A trace whose console and failing request carry credentials, as a real app's may.
const SECRET = 'hunter2-s3cret-token-value';
const LEAKY_TRACE = zipSync({
  'trace.trace': strToU8(
    [
      { version: 8, type: 'context-options', playwrightVersion: '1.50.0' },
      { type: 'console', messageType: 'error', text: `login failed with Authorization: Bearer ${SECRET}` },
      { type: 'before', callId: 'c1', startTime: 1, class: 'Frame', method: 'goto', params: { url: `https://admin:${SECRET}@shop.test/` } },
      { type: 'after', callId: 'c1', endTime: 5, error: { message: `net::ERR_FAILED at https://admin:${SECRET}@shop.test/` } },
    ]
      .map((event) => JSON.stringify(event))
      .join('\n'),
  ),
});

beforeAll(async () => {
  built = await buildEvidenceDb();
  // The flaky test's failing attempt gets the leaky trace instead of its own.
  await built.evidence.put(sha256Of(LEAKY_TRACE), LEAKY_TRACE, LEAKY_TRACE.length);
  const db = new Database(built.db);
  db.prepare(
    "UPDATE attachments SET sha256 = ?, size = ? WHERE kind = 'trace' AND retry = 0 AND result_id = (SELECT r.id FROM results r JOIN tests t ON t.id = r.test_id WHERE t.title = 'keeps the total without a code')",
  ).run(sha256Of(LEAKY_TRACE), LEAKY_TRACE.length);
  db.close();
  source = await openLocalSource(built.db, { evidence: built.evidence });
  const server = createMcpServer(source, { version: 'test' });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: 'flakeboard-test', version: '1' });
  await client.connect(clientSide);
});

afterAll(async () => {
  await client?.close();
  await source?.close();
  built?.cleanup();
});

const call = async (args: Record<string, unknown>) => (await client.callTool({ name: 'failure_evidence', arguments: args })) as CallToolResult;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

describe('failure_evidence', () => {
  it("sends each failed attempt's screenshot as an image and summarises its trace: the failing action, its locator, console errors, failed requests", async () => {
    const r = await call({ file: 'checkout.spec.ts', title: 'applies a discount code' });
    expect(r.isError).toBeFalsy();
    const images = r.content.filter((c) => c.type === 'image') as Array<{ data: string; mimeType: string }>;
    // Both attempts failed (a retry each): two screenshots, real PNGs.
    expect(images).toHaveLength(2);
    for (const image of images) {
      expect(image.mimeType).toBe('image/png');
      expect(Buffer.from(image.data, 'base64').subarray(0, 4).equals(PNG)).toBe(true);
    }
    const text = (r.content[0] as { text: string }).text;
    expect(text).toContain('Attempt 1 (first): failed');
    expect(text).toContain('Attempt 2 (retry 1): failed');
    expect(text).toContain(`- failing action: "Expect \\"toHaveText\\"" on "locator('#total')"`);
    expect(text).toContain('"price service: 503 from /api/price"');
    expect(text).toContain('GET "https://shop.test/api/discount?code=SAVE1O": 404');
    expect(text).toContain('GET "https://shop.test/api/stock": "net::ERR_CONNECTION_REFUSED"');
    const data = r.structuredContent as { attempts: Array<{ screenshot: { sent: boolean }; trace: { summary: { failingAction: { locator: string }; pageErrors: string[] } } }> };
    expect(data.attempts).toHaveLength(2);
    expect(data.attempts[0]!.screenshot.sent).toBe(true);
    expect(data.attempts[0]!.trace.summary.failingAction.locator).toBe("locator('#total')");
    expect(data.attempts[0]!.trace.summary.pageErrors).toEqual(['discount lookup failed with 404']);
  });

  it("shows only the failed attempt of a flaky test, and redacts credentials its trace quotes in the text and the structured content", async () => {
    const r = await call({ file: 'checkout.spec.ts', title: 'keeps the total without a code' });
    const data = r.structuredContent as { attempts: Array<{ retry: number; trace: { summary: { failingAction: { title: string; locator: string }; consoleErrors: Array<{ text: string }> } } }> };
    // The passing retry is not a failure.
    expect(data.attempts.map((a) => a.retry)).toEqual([0]);
    expect(data.attempts[0]!.trace.summary.failingAction).toMatchObject({ title: 'Frame.goto' });
    expect(data.attempts[0]!.trace.summary.consoleErrors[0]!.text).toBe('login failed with Authorization: Bearer [REDACTED]');
    const text = (r.content[0] as { text: string }).text;
    expect(text).toContain('Bearer [REDACTED]');
    expect(JSON.stringify(r)).not.toContain(SECRET);
  });

  it('says so when the test has no stored failure with evidence', async () => {
    const r = await call({ file: 'checkout.spec.ts', title: 'no such test' });
    expect(r.isError).toBe(true);
  });
});
