import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import Database from 'better-sqlite3';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Of } from '../../server/store/evidence/hashing.js';
import { buildEvidenceDb } from '../../fixtures/testing/evidence-db.js';
import { openLocalSource } from '../local-source.js';
import { createMcpServer } from '../server.js';
import { partnerWords } from '../../core/api/attempt-comparison.js';
import type { AttemptEvidence } from '../../core/api/evidence.js';
import { pairOf } from './compare-attempts.js';
import type { AttemptComparison } from '../../core/trace/compare.js';
import type { HistorySource } from '../source.js';

// The tool over a real database and evidence folder: the evidence suite's real run.
let built: Awaited<ReturnType<typeof buildEvidenceDb>>;
let source: HistorySource;
let client: Client;

const SECRET = 'hunter2-s3cret-token-value';

beforeAll(async () => {
  built = await buildEvidenceDb();
  // The flaky test's failing attempt: its own real trace with one console error that carries a credential.
  const db = new Database(built.db);
  const row = db
    .prepare("SELECT a.sha256 FROM attachments a JOIN results r ON r.id = a.result_id JOIN tests t ON t.id = r.test_id WHERE t.title = 'keeps the total without a code' AND a.kind = 'trace' AND a.retry = 0")
    .get() as { sha256: string };
  const { stream } = (await built.evidence.get(row.sha256))!;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const files = unzipSync(Buffer.concat(chunks));
  const leak = JSON.stringify({ type: 'console', messageType: 'error', text: `login failed with Authorization: Bearer ${SECRET}` });
  const name = Object.keys(files).find((file) => /^\d+-trace\.trace$/.test(file) && files[file]!.length > 1000)!;
  files[name] = strToU8(`${new TextDecoder().decode(files[name])}\n${leak}\n`);
  const leaky = zipSync(files);
  await built.evidence.put(sha256Of(leaky), leaky, leaky.length);
  db.prepare("UPDATE attachments SET sha256 = ?, size = ? WHERE kind = 'trace' AND retry = 0 AND sha256 = ?").run(sha256Of(leaky), leaky.length, row.sha256);
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

const call = async (args: Record<string, unknown>) => (await client.callTool({ name: 'compare_attempts', arguments: args })) as CallToolResult;
const text = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describe('compare_attempts', () => {
  it('lays the flaky test’s failing attempt beside its passing retry, from both real traces, with secrets redacted', async () => {
    const result = await call({ file: 'checkout.spec.ts', title: 'keeps the total without a code' });
    expect(result.isError, text(result)).toBeFalsy();
    const data = result.structuredContent as { comparison: AttemptComparison };
    expect(data).toMatchObject({ failing: { retry: 0, status: 'failed' }, passing: { retry: 1, status: 'passed' }, partner: 'retry', partnerText: 'Compared with the passing retry in the same run', tracesMissing: false });
    expect(text(result)).toMatch(/^passing: result \d+ of run \d+, attempt 2 \(the passing retry in the same run\)$/m);
    expect(data.comparison.partedAt).toMatchObject({ reason: 'only-failing', failing: { title: 'Click', locator: "getByRole('button', { name: 'Remove code' })" } });
    expect(text(result)).toContain(`- parted at "Click" on "getByRole('button', { name: 'Remove code' })": only the failing attempt did it, and it failed: "TimeoutError: locator.click: Timeout 1000ms exceeded."`);
    // The console error only the failing attempt logged is named, its credential not.
    expect(data.comparison.consoleErrorsOnlyFailing).toHaveLength(1);
    expect(text(result)).toContain('console errors only in the failing attempt:');
    expect(text(result)).toContain('login failed with Authorization');
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });

  it('without a passing retry: a passing run on the same commit first, else the nearest in time', () => {
    const attempt = (status: string) => ({ retry: 0, status }) as AttemptEvidence;
    const result = (id: number, day: number, commit: string, status: string) => ({ id, run_id: id, run_date: `2026-11-${String(day).padStart(2, '0')}T10:00:00.000Z`, git_commit: commit, project: 'chromium', attempts: [attempt(status)] });
    // Newest first, as the source lists them.
    const results = [result(5, 20, 'ccc', 'failed'), result(4, 19, 'bbb', 'passed'), result(3, 10, 'ccc', 'passed'), result(2, 3, 'aaa', 'passed')];
    expect(pairOf(results)).toMatchObject({ partner: 'same-commit', failing: { result: { id: 5 } }, passing: { result: { id: 3 } } });
    const otherCommit = results.map((r) => (r.id === 3 ? { ...r, git_commit: 'ddd' } : r));
    expect(pairOf(otherCommit)).toMatchObject({ partner: 'nearest', passing: { result: { id: 4 } } });
    // Nearest before or after: a pass the day after the failure beats one four days before.
    const after = [result(9, 25, 'eee', 'passed'), result(8, 24, 'fff', 'failed'), result(7, 20, 'ggg', 'passed')];
    expect(pairOf(after)).toMatchObject({ partner: 'nearest', passing: { result: { id: 9 } } });
    expect(partnerWords('nearest', { runId: 9, gitCommit: 'eee', startedAt: after[0]!.run_date })).toBe('Compared with the nearest passing run in time, run #9 on 25 Nov 2026');
  });

  it('refuses a test that never passed: nothing to compare', async () => {
    const result = await call({ file: 'checkout.spec.ts', title: 'applies a discount code' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/has both a failed and a passing attempt .*nothing to compare/);
  });
});
