import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../../fixtures/testing/cli.js';
import { makeTempDir } from '../../fixtures/testing/temp.js';
import { createTestDatabase, HAS_POSTGRES, queryRows } from '../../fixtures/testing/postgres.js';
import { S3RVER_CREDENTIALS, startTestS3, useS3rverCredentials } from '../../fixtures/testing/s3-server.js';
import { S3EvidenceStore } from '../../server/store/evidence/s3-store.js';

let temp: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  temp = makeTempDir('flakeboard-evidence-cli-');
});
afterEach(() => temp.cleanup());

const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

function write(path: string, content: string | Buffer): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  return path;
}

type Attachment = { name: string; contentType: string; path?: string; body?: string };
const test = (title: string, results: Array<{ status: string; attachments?: Attachment[] }>, line: number) => ({
  title,
  file: 'a.spec.ts',
  line,
  column: 1,
  tests: [{ projectName: 'chromium', expectedStatus: 'passed', results: results.map((r, retry) => ({ retry, duration: 5, ...r })) }],
});

function report(outputDir: string, specs: unknown[]): string {
  return JSON.stringify({ config: { version: '1.50.0', projects: [{ name: 'chromium', outputDir }] }, suites: [{ title: 'a.spec.ts', file: 'a.spec.ts', specs }], errors: [] });
}

function rows<T>(db: string, sql: string): T[] {
  const sqlite = new Database(db, { readonly: true });
  try {
    return sqlite.prepare(sql).all() as T[];
  } finally {
    sqlite.close();
  }
}

type Row = { title: string; retry: number; name: string; kind: string; sha256: string | null; size: number | null; state: string };
const ATTACHMENTS = `SELECT t.title, a.retry, a.name, a.kind, a.sha256, a.size, a.state FROM attachments a JOIN results r ON r.id = a.result_id JOIN tests t ON t.id = r.test_id ORDER BY t.title, a.retry, a.ordinal`;

describe('import keeps the evidence of failures', () => {
  it('stores the screenshots and traces of failed and flaky tests once each, in a private folder beside the database', async () => {
    const out = join(temp.dir, 'test-results');
    const png = Buffer.from('\x89PNG fake screenshot');
    const zip = Buffer.from('PK fake trace');
    const shot = write(join(out, 'fails', 'test-failed-1.png'), png);
    const trace = write(join(out, 'fails', 'trace.zip'), zip);
    const retryShot = write(join(out, 'flaky-retry1', 'test-failed-1.png'), Buffer.from('other png'));
    const passShot = write(join(out, 'passes', 'shot.png'), Buffer.from('passing screenshot'));
    const file = write(
      join(temp.dir, 'report.json'),
      report(out, [
        test('fails', [{ status: 'failed', attachments: [{ name: 'screenshot', contentType: 'image/png', path: shot }, { name: 'trace', contentType: 'application/zip', path: trace }] }], 1),
        test('flaky', [
          { status: 'failed', attachments: [{ name: 'screenshot', contentType: 'image/png', path: shot }] },
          { status: 'passed', attachments: [{ name: 'screenshot', contentType: 'image/png', path: retryShot }, { name: 'note', contentType: 'text/plain', body: Buffer.from('hello').toString('base64') }] },
        ], 2),
        test('passes', [{ status: 'passed', attachments: [{ name: 'screenshot', contentType: 'image/png', path: passShot }] }], 3),
      ]),
    );
    const db = join(temp.dir, 'data', 'flakeboard.db');
    const result = await runCli(['import', file, '--db', db], { env: cleanEnv() });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/5 attachments kept as evidence \(4 new/);
    expect(rows<Row>(db, ATTACHMENTS)).toEqual([
      { title: 'fails', retry: 0, name: 'screenshot', kind: 'screenshot', sha256: sha(png), size: png.length, state: 'stored' },
      { title: 'fails', retry: 0, name: 'trace', kind: 'trace', sha256: sha(zip), size: zip.length, state: 'stored' },
      { title: 'flaky', retry: 0, name: 'screenshot', kind: 'screenshot', sha256: sha(png), size: png.length, state: 'stored' },
      { title: 'flaky', retry: 1, name: 'screenshot', kind: 'screenshot', sha256: sha('other png'), size: 9, state: 'stored' },
      { title: 'flaky', retry: 1, name: 'note', kind: 'other', sha256: sha('hello'), size: 5, state: 'stored' },
    ]);
    const blobs = rows<{ sha256: string; failing: number }>(db, 'SELECT sha256, failing FROM evidence_blobs ORDER BY sha256');
    expect(blobs.map((b) => b.sha256).sort()).toEqual([sha(png), sha(zip), sha('other png'), sha('hello')].sort());
    expect(blobs.every((b) => b.failing === 1)).toBe(true);
    const dir = join(temp.dir, 'data', 'flakeboard.db-evidence');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const blob = join(dir, sha(png).slice(0, 2), sha(png));
    expect(statSync(blob).mode & 0o777).toBe(0o600);
    expect(statSync(blob).size).toBe(png.length);
    expect(readdirSync(join(dir, '.partial'))).toEqual([]);
  });

  it('--attachments all keeps passing tests too; none keeps nothing', async () => {
    const out = join(temp.dir, 'test-results');
    const shot = write(join(out, 'passes', 'shot.png'), Buffer.from('passing screenshot'));
    const file = write(join(temp.dir, 'report.json'), report(out, [test('passes', [{ status: 'passed', attachments: [{ name: 'screenshot', contentType: 'image/png', path: shot }] }], 1)]));
    const all = join(temp.dir, 'all.db');
    expect((await runCli(['import', file, '--db', all, '--attachments', 'all'], { env: cleanEnv() })).exitCode).toBe(0);
    expect(rows<Row>(all, ATTACHMENTS).map((r) => r.state)).toEqual(['stored']);
    expect(rows<{ failing: number }>(all, 'SELECT failing FROM evidence_blobs')).toEqual([{ failing: 0 }]);
    const none = join(temp.dir, 'none.db');
    expect((await runCli(['import', file, '--db', none, '--attachments', 'none'], { env: cleanEnv() })).exitCode).toBe(0);
    expect(rows(none, 'SELECT * FROM attachments')).toEqual([]);
  });

  it('reads nothing outside the report and its output folders: /etc/passwd, ../.., a link out', async () => {
    const out = join(temp.dir, 'project', 'test-results');
    const secret = write(join(temp.dir, 'secret.txt'), 'do not read');
    mkdirSync(join(out, 'fails'), { recursive: true });
    const { symlinkSync } = await import('node:fs');
    symlinkSync(secret, join(out, 'fails', 'link.png'));
    const file = write(
      join(temp.dir, 'project', 'report.json'),
      report(out, [
        test('fails', [{ status: 'failed', attachments: [
          { name: 'passwd', contentType: 'text/plain', path: '/etc/passwd' },
          { name: 'up', contentType: 'text/plain', path: '../secret.txt' },
          { name: 'link', contentType: 'image/png', path: join(out, 'fails', 'link.png') },
        ] }], 1),
      ]),
    );
    const db = join(temp.dir, 'out.db');
    const result = await runCli(['import', file, '--db', db], { env: cleanEnv() });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('evidence: skipped "passwd" of "fails" (chromium, attempt 1): "/etc/passwd" is outside the report\'s folder and its output folders: not read');
    expect(result.stderr).toContain('skipped "up"');
    expect(result.stderr).toContain('skipped "link"');
    expect(rows<Row>(db, ATTACHMENTS).map((r) => [r.name, r.state, r.sha256])).toEqual([
      ['passwd', 'not-found', null],
      ['up', 'not-found', null],
      ['link', 'not-found', null],
    ]);
    expect(rows(db, 'SELECT * FROM evidence_blobs')).toEqual([]);
    expect(rows<{ n: number }>(db, 'SELECT count(*) AS n FROM runs')).toEqual([{ n: 1 }]);
  });

  it('finds the files of a report moved with its output folder, and skips missing and oversized ones with a line each', async () => {
    // Written on another machine (a Windows one): the paths name C:\ci\..., the folder came along.
    const moved = join(temp.dir, 'artifacts');
    const png = Buffer.from('moved screenshot');
    write(join(moved, 'test-results', 'a-fails-chromium', 'test-failed-1.png'), png);
    write(join(moved, 'test-results', 'a-fails-chromium', 'video.webm'), Buffer.alloc(3000, 1));
    const file = write(
      join(moved, 'report.json'),
      report('C:\\ci\\work\\test-results', [
        test('fails', [{ status: 'failed', attachments: [
          { name: 'screenshot', contentType: 'image/png', path: 'C:\\ci\\work\\test-results\\a-fails-chromium\\test-failed-1.png' },
          { name: 'video', contentType: 'video/webm', path: 'C:\\ci\\work\\test-results\\a-fails-chromium\\video.webm' },
          { name: 'trace', contentType: 'application/zip', path: 'C:\\ci\\work\\test-results\\a-fails-chromium\\trace.zip' },
        ] }], 1),
      ]),
    );
    const db = join(temp.dir, 'moved.db');
    const result = await runCli(['import', file, '--db', db, '--attachment-max-size', '2kb'], { env: cleanEnv() });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(/skipped "video" of "fails" \(chromium, attempt 1\): 3000 bytes, over the 2048-byte limit/);
    expect(result.stderr).toMatch(/skipped "trace" of "fails" .*was not found/);
    expect(rows<Row>(db, ATTACHMENTS).map((r) => [r.name, r.state, r.size])).toEqual([
      ['screenshot', 'stored', png.length],
      ['video', 'too-large', 3000],
      ['trace', 'not-found', null],
    ]);
  });

  it('refuses a bad --attachments or size before reading anything', async () => {
    const bad = await runCli(['import', 'x.json', '--db', join(temp.dir, 'x.db'), '--attachment-max-size', 'lots'], { env: cleanEnv() });
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain('--attachment-max-size must be a size such as 50MB');
    const mode = await runCli(['import', 'x.json', '--db', join(temp.dir, 'x.db'), '--attachments', 'some'], { env: cleanEnv() });
    expect(mode.exitCode).not.toBe(0);
    expect(mode.stderr).toContain("Allowed choices are failures, all, none");
  });
});

const onPostgres = HAS_POSTGRES ? describe : describe.skip;

onPostgres('a team on PostgreSQL with evidence in an S3-compatible bucket', () => {
  it('import stores the blobs in the bucket (a real s3rver) and the rows in PostgreSQL', async () => {
    useS3rverCredentials();
    const s3 = await startTestS3();
    const database = await createTestDatabase();
    try {
      const out = join(temp.dir, 'test-results');
      const png = Buffer.from('team screenshot');
      const shot = write(join(out, 'fails', 'test-failed-1.png'), png);
      const file = write(join(temp.dir, 'report.json'), report(out, [test('fails', [{ status: 'failed', attachments: [{ name: 'screenshot', contentType: 'image/png', path: shot }] }], 1)]));
      const env = cleanEnv({ ...S3RVER_CREDENTIALS });
      const result = await runCli(['import', file, '--db', database.url, '--evidence', `s3://${s3.bucket}/team`, '--evidence-endpoint', s3.endpoint], { env });
      expect(result.exitCode).toBe(0);
      // Nothing on stderr: not the AWS SDK's warning about Node versions either.
      expect(result.stderr).toBe('');
      expect(result.stdout).toContain(`1 attachment kept as evidence (1 new, 1 KB) in s3://${s3.bucket}/team/`);
      expect(await queryRows(database.url, 'SELECT name, state, sha256 FROM attachments')).toEqual([{ name: 'screenshot', state: 'stored', sha256: sha(png) }]);
      const bucket = new S3EvidenceStore({ bucket: s3.bucket, prefix: 'team/', endpoint: s3.endpoint });
      const blob = await bucket.get(sha(png));
      const chunks: Buffer[] = [];
      for await (const chunk of blob!.stream) chunks.push(Buffer.from(chunk as Buffer));
      expect(Buffer.concat(chunks).equals(png)).toBe(true);
      await bucket.close();
    } finally {
      await database.drop();
      await s3.close();
    }
  });
});
