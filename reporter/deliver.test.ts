import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanEnv } from '../fixtures/testing/cli.js';
import { makeTempDir } from '../fixtures/testing/temp.js';
import { deliver } from './deliver.js';

/** The reporter's buildId/buildUrl options reach the run through the binary's flags (needs `npm run build`). */
const REPORT = fileURLToPath(new URL('../fixtures/reports/own/shard-1-of-2.json', import.meta.url));

let temp: ReturnType<typeof makeTempDir>;
let saved: NodeJS.ProcessEnv;
beforeEach(() => {
  temp = makeTempDir('flakeboard-deliver-');
  // deliver passes this process's environment on: no CI variables of the machine running the tests.
  saved = process.env;
  process.env = cleanEnv() as NodeJS.ProcessEnv;
});
afterEach(() => {
  process.env = saved;
  temp.cleanup();
});

describe('deliver', () => {
  it('stores the run with the build id and URL the reporter was given; a bad URL is refused with the CLI’s message', async () => {
    const db = join(temp.dir, 'f.db');
    const stored = await deliver({ destination: { kind: 'db', db }, reportFile: REPORT, buildId: 'gh-77', buildUrl: 'https://ci.example.com/77', timeoutMs: 60_000 });
    const sqlite = new Database(db, { readonly: true });
    try {
      expect(sqlite.prepare('SELECT id, build_id, build_url, shard_current, shard_total FROM runs').all()).toEqual([
        { id: stored.runId, build_id: 'gh-77', build_url: 'https://ci.example.com/77', shard_current: 1, shard_total: 2 },
      ]);
    } finally {
      sqlite.close();
    }
    await expect(deliver({ destination: { kind: 'db', db }, reportFile: REPORT, buildUrl: 'javascript:alert(1)', timeoutMs: 60_000 })).rejects.toThrow(
      '--build-url: the build URL must start with http:// or https://, not javascript:',
    );
  }, 120_000);

  it('stores the run approved, with its name and uploader, when asked; a refusal never names the temporary file', async () => {
    const db = join(temp.dir, 'f.db');
    const stored = await deliver({ destination: { kind: 'db', db }, reportFile: REPORT, name: 'shop · main', approve: true, uploader: 'reporter on box', timeoutMs: 60_000 });
    expect(stored.status).toBe('approved');
    const sqlite = new Database(db, { readonly: true });
    try {
      expect(sqlite.prepare('SELECT file_name, uploaded_via, status FROM runs').all()).toEqual([{ file_name: 'shop · main', uploaded_via: 'reporter on box', status: 'approved' }]);
    } finally {
      sqlite.close();
    }
    const broken = join(temp.dir, 'playwright-report.json');
    writeFileSync(broken, '{"config": ');
    const refused = deliver({ destination: { kind: 'db', db }, reportFile: broken, name: 'shop · main', timeoutMs: 60_000 });
    await expect(refused).rejects.toThrow(/^invalid JSON: /);
    await expect(refused).rejects.not.toThrow(temp.dir);
  }, 120_000);
});
