import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../fixtures/testing/temp.js';
import { ingestValue } from '../server/ingest.js';
import { openStore } from '../server/store/engine/open.js';
import { openLocalSource } from './local-source.js';
import { createMcpServer } from './server.js';
import type { HistorySource } from './source.js';

// Secrets a failing test prints: the MCP answers carry report text to an agent, and from there
// often to a hosted model, so none of these may come through.
const SECRETS = [
  'hunter2-url-password',
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlLXNpZ25hdHVyZQ',
  'AKIAIOSFODNN7EXAMPLE',
  'p4ssw0rd-in-env',
  'sk_live_51HabcDEFghiJKLmnoPQRstu',
  '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',
  'T0ABCDEFG/B0HIJKLMN/aBcDeFgHiJkLmNoPqRsTuVwX',
  'fbt_q2Ldi8XzS0j4m7yVw1Bd9kPzTn3Rt5UvWxYz0123456',
];
const MESSAGE = [
  `Error: request to https://admin:${SECRETS[0]}@db.internal:5432/app failed`,
  `Authorization: Bearer ${SECRETS[1]}`,
  `aws_access_key_id=${SECRETS[2]}`,
  `password=${SECRETS[3]}`,
  `stripe key ${SECRETS[4]} mail ${SECRETS[5]}`,
  `posted to https://hooks.slack.com/services/${SECRETS[6]} with ${SECRETS[7]}`,
].join('\n');

function report(run: number) {
  return {
    config: { version: '1.50.0', projects: [{ name: 'chromium' }] },
    suites: [
      {
        title: 'login.spec.ts',
        file: 'login.spec.ts',
        specs: [
          {
            title: 'signs in',
            file: 'login.spec.ts',
            line: 1,
            column: 1,
            tests: [
              {
                projectName: 'chromium',
                expectedStatus: 'passed',
                status: 'unexpected',
                results: [{ status: 'failed', retry: 0, duration: 10, startTime: `2026-11-2${run}T10:00:00.000Z`, error: { message: MESSAGE } }],
              },
            ],
          },
        ],
      },
    ],
  };
}

let temp: ReturnType<typeof makeTempDir>;
let source: HistorySource;
let client: Client;

beforeAll(async () => {
  temp = makeTempDir('flakeboard-mcp-secrets-');
  const db = join(temp.dir, 'secrets.db');
  const store = openStore(db);
  for (const run of [1, 2]) ingestValue(store, report(run), { fileName: `run-${run}.json`, approve: true, fallbackGit: () => ({ branch: 'main', commit: 'abc1234' }) });
  await store.close();
  source = await openLocalSource(db);
  const [a, b] = InMemoryTransport.createLinkedPair();
  await createMcpServer(source, { version: 'test' }).connect(a);
  client = new Client({ name: 'secrets-test', version: '1' });
  await client.connect(b);
});

afterAll(async () => {
  await client?.close();
  await source?.close();
  temp?.cleanup();
});

const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;

describe('secrets in report text', () => {
  it('never reach an agent through any tool, as text or as structured content', async () => {
    const answers = [
      await call('test_history', { file: 'login.spec.ts', title: 'signs in' }),
      await call('test_errors', { file: 'login.spec.ts', title: 'signs in' }),
      await call('last_run_failures', {}),
      await call('diagnose_test', { file: 'login.spec.ts', title: 'signs in' }),
    ];
    for (const r of answers) {
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      const everything = JSON.stringify(r);
      for (const secret of SECRETS) expect(everything).not.toContain(secret);
    }
    // The error is still there to read, with the secrets marked as taken out.
    const errors = JSON.stringify(answers[1]);
    expect(errors).toContain('db.internal');
    expect(errors).toContain('[REDACTED]');
  });

  it('never reach an agent through an error answer either', async () => {
    const r = await call('last_run_failures', { branch: `release ${SECRETS[4]} ${SECRETS[5]}` });
    expect(r.isError).toBe(true);
    const everything = JSON.stringify(r);
    expect(everything).toContain('no run of branch');
    for (const secret of [SECRETS[4]!, SECRETS[5]!]) expect(everything).not.toContain(secret);
  });
});
