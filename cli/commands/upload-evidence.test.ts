import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildSqliteTestApp, type SqliteTestApp } from '../../fixtures/testing/app.js';
import { cleanEnv, runCli } from '../../fixtures/testing/cli.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';
import { API_TOKEN_PREFIX, hashToken, newToken } from '../../server/auth/tokens.js';
import { createApiToken } from '../../server/store/accounts/api-tokens.js';
import { FolderEvidenceStore } from '../../server/store/evidence/folder-store.js';

const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

let t: SqliteTestApp;
let temp: ReturnType<typeof makeTempDir>;
let server: string;
let token: string;
let evidence: FolderEvidenceStore;

beforeEach(async () => {
  temp = makeTempDir('flakeboard-upload-evidence-');
  evidence = new FolderEvidenceStore(join(temp.dir, 'server-evidence'));
  t = await buildSqliteTestApp({ evidence });
  server = await t.app.listen({ port: 0, host: '127.0.0.1' });
  token = newToken(API_TOKEN_PREFIX);
  await createApiToken(t.store, { name: 'ci', tokenHash: hashToken(token), userId: 3 });
});
afterEach(async () => {
  await t.close();
  temp.cleanup();
});

function write(path: string, content: string | Buffer): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  return path;
}

function report(title: string, attachments: unknown[]): string {
  return JSON.stringify({
    config: { version: '1.50.0', projects: [{ name: 'chromium' }] },
    suites: [{ title: 'a.spec.ts', file: 'a.spec.ts', specs: [{ title, file: 'a.spec.ts', line: 1, column: 1, tests: [{ projectName: 'chromium', expectedStatus: 'passed', results: [{ retry: 0, status: 'failed', duration: 5, attachments }] }] }] }],
    errors: [],
  });
}

describe('upload sends evidence as bytes, only what the server lacks', () => {
  it('sends the blobs once, never a path the server would read, and the run names them', async () => {
    const png = Buffer.from('uploaded screenshot');
    const shot = write(join(temp.dir, 'test-results', 'a', 'test-failed-1.png'), png);
    const first = write(join(temp.dir, 'first.json'), report('one', [{ name: 'screenshot', contentType: 'image/png', path: shot }, { name: 'secret', contentType: 'text/plain', path: '/etc/passwd' }]));
    const env = cleanEnv();
    const sent = await runCli(['upload', first, '--server', server, '--token', token], { env });
    expect(sent.exitCode).toBe(0);
    expect(sent.stdout).toContain('1 attachments kept as evidence (1 sent');
    expect(sent.stderr).toContain('skipped "secret"');
    expect(await evidence.has(sha(png))).toBe(true);
    expect(await evidence.stats()).toEqual({ count: 1, bytes: png.length });

    // The same screenshot in a second run: nothing sent again.
    const second = write(join(temp.dir, 'second.json'), report('two', [{ name: 'screenshot', contentType: 'image/png', path: shot }]));
    const again = await runCli(['upload', second, '--server', server, '--token', token], { env });
    expect(again.stdout).toContain('1 attachments kept as evidence (0 sent');
    const rows = t.store.sqlite.prepare(`SELECT a.name, a.state, a.sha256 FROM attachments a ORDER BY a.result_id, a.ordinal`).all();
    expect(rows).toEqual([
      { name: 'screenshot', state: 'stored', sha256: sha(png) },
      { name: 'secret', state: 'not-found', sha256: null },
      { name: 'screenshot', state: 'stored', sha256: sha(png) },
    ]);
  });
});
