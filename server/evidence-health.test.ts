import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3, useS3rverCredentials, type TestS3 } from '../fixtures/testing/s3-server.js';
import { makeTempDir } from '../fixtures/testing/temp.js';
import { buildTestApp } from '../fixtures/testing/app.js';
import { FolderEvidenceStore } from './store/evidence/folder-store.js';
import { S3EvidenceStore } from './store/evidence/s3-store.js';

/** /api/health names the evidence store beside the database: a bucket that is down degrades the server, it does not take it out. */
describe('health of the evidence store', () => {
  let s3: TestS3;
  const temp = makeTempDir('flakeboard-evidence-health-');
  beforeAll(async () => {
    useS3rverCredentials();
    s3 = await startTestS3();
  });
  afterAll(async () => {
    await s3?.close();
    temp.cleanup();
  });

  const health = async (evidence: FolderEvidenceStore | S3EvidenceStore | undefined) => {
    const t = await buildTestApp(evidence ? { evidence } : {});
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      return { status: res.statusCode, body: res.json() as { status: string; database: { ok: boolean }; evidence: Record<string, unknown> } };
    } finally {
      await t.close();
    }
  };

  it('says none when the server keeps no evidence, and ok for a folder and a bucket that answer', async () => {
    expect(await health(undefined)).toMatchObject({ status: 200, body: { status: 'ok', evidence: { ok: true, kind: 'none' } } });
    expect(await health(new FolderEvidenceStore(temp.dir))).toMatchObject({ status: 200, body: { status: 'ok', evidence: { ok: true, kind: 'folder' } } });
    expect(await health(new S3EvidenceStore({ bucket: s3.bucket, prefix: 'health/', endpoint: s3.endpoint }))).toMatchObject({ status: 200, body: { status: 'ok', evidence: { ok: true, kind: 's3' } } });
  });

  it('answers 200 degraded, naming the evidence store and why, when its bucket is down; the database is still ok', async () => {
    const down = await startTestS3('gone');
    await down.close();
    const { status, body } = await health(new S3EvidenceStore({ bucket: down.bucket, prefix: '', endpoint: down.endpoint }));
    expect(status).toBe(200);
    expect(body.status).toBe('degraded');
    expect(body.database.ok).toBe(true);
    expect(body.evidence).toEqual({ ok: false, kind: 's3', error: expect.stringMatching(/.+/) });
    // The bucket's address is not in the public answer.
    expect(JSON.stringify(body)).not.toContain(down.endpoint);
  });
});
