import type { FastifyInstance } from 'fastify';
import type { BulkReviewRequest, ReviewRequest, ReviewStatus, UploadDetailResponse, UploadResponse } from '../../core/api/uploads.js';
import { isFailure } from '../../core/status.js';
import { HttpError, notFound } from '../errors.js';
import { callerOf } from '../plugins/authenticate.js';
import type { Store } from '../store/open.js';
import { findUpload, pendingUploads, recentUploadCount, recentUploads, runTestResults } from '../store/uploads.js';
import { bodyCharset } from '../upload-body.js';
import type { Writer } from '../writer/runner.js';
import { pageOf, pagingProperties, type PagingQuery } from './paging.js';

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;

const reviewBody = {
  type: 'object',
  required: ['action'],
  properties: { action: { enum: ['approve', 'reject'] }, notes: { type: 'string', maxLength: 10_000 } },
} as const;

const bulkBody = {
  type: 'object',
  required: ['uploads'],
  properties: {
    uploads: {
      type: 'array',
      minItems: 1,
      maxItems: 10_000,
      items: { type: 'object', required: ['id', 'action'], properties: { id: { type: 'integer', minimum: 1 }, action: { enum: ['approve', 'reject'] } } },
    },
  },
} as const;

export function registerUploadRoutes(app: FastifyInstance, options: { store: Store; bodyLimit: number; writer: Writer }): void {
  const { store, writer } = options;

  // The body arrives as bytes and is parsed, checked and stored by the writer worker
  // (upload-body.ts, writer/): tens of megabytes of JSON would hold this thread for seconds.
  app.post<{ Body: Buffer | undefined }>(
    '/api/upload',
    { bodyLimit: options.bodyLimit, config: { rawJsonBody: true, auth: { access: 'member', apiToken: true } } },
    async (request) => {
      const caller = callerOf(request);
      if (!Buffer.isBuffer(request.body)) throw new HttpError(400, 'The request body is empty: send a JSON object');
      const result = await writer.upload(request.body, bodyCharset(request.headers['content-type']), caller.user.id);
      request.log.info({ runId: result.runId, tests: result.tests, duplicate: result.duplicate, by: caller.user.username }, 'report uploaded');
      return { success: true, runId: result.runId, testsProcessed: result.tests, duplicate: result.duplicate, status: 'pending' as const } satisfies UploadResponse;
    },
  );

  app.get('/api/uploads/pending', { config: { auth: { access: 'member', apiToken: true } } }, async () => {
    const uploads = await pendingUploads(store);
    return { uploads, count: uploads.length };
  });

  app.patch<{ Params: { id: number }; Body: ReviewRequest }>(
    '/api/uploads/:id/review',
    { schema: { params: idParams, body: reviewBody }, config: { auth: { access: 'reviewer' } } },
    async (request) => {
      const caller = callerOf(request);
      const { id } = request.params;
      await writer.review([{ id, action: request.body.action }], caller.user.id, request.body.notes || null);
      const upload = (await findUpload(store, id))!;
      return { success: true, upload: { id, status: upload.status, reviewed_by_username: upload.reviewed_by_username, reviewed_at: upload.reviewed_at } };
    },
  );

  app.post<{ Body: BulkReviewRequest }>('/api/uploads/bulk-review', { schema: { body: bulkBody }, config: { auth: { access: 'reviewer' } } }, async (request) => {
    const caller = callerOf(request);
    await writer.review(request.body.uploads, caller.user.id, null);
    return { success: true, reviewed: request.body.uploads.length };
  });

  // Paged like every list (paging.ts); `limit` sizes the bare list as it always did.
  app.get<{ Querystring: { status?: ReviewStatus; limit?: number } & PagingQuery }>(
    '/api/recent-uploads',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: { status: { enum: ['pending', 'approved', 'rejected'] }, limit: { type: 'integer', minimum: 1, maximum: 1000 }, ...pagingProperties },
        },
      },
      config: { auth: { access: 'member', apiToken: true } },
    },
    async (request, reply) => {
      const { status, limit } = request.query;
      const { page, pageSize } = pageOf(request.query);
      const size = request.query.page === undefined && limit !== undefined ? limit : pageSize;
      const [items, total] = await Promise.all([recentUploads(store, { limit: size, offset: (page - 1) * size, ...(status ? { status } : {}) }), recentUploadCount(store, status)]);
      if (request.query.page !== undefined) return { items, total, page, pageSize };
      return reply.header('x-total-count', String(total)).send(items);
    },
  );

  app.get<{ Params: { id: number } }>('/api/uploads/:id', { schema: { params: idParams }, config: { auth: { access: 'member', apiToken: true } } }, async (request) => {
    const upload = await findUpload(store, request.params.id);
    if (!upload) throw notFound('Upload');
    return uploadDetail(store, upload);
  });

  app.delete<{ Params: { id: number } }>('/api/test-run/:id', { schema: { params: idParams }, config: { auth: { access: 'reviewer' } } }, async (request) => {
    if (!(await writer.deleteRun(request.params.id))) throw notFound('Test run');
    request.log.info({ runId: request.params.id, by: callerOf(request).user.username }, 'test run deleted');
    return { success: true };
  });

  app.delete('/api/clear-all', { config: { auth: { access: 'admin' } } }, async (request) => {
    const deleted = await writer.clearAll();
    request.log.warn({ runs: deleted, by: callerOf(request).user.username }, 'all test data cleared');
    return { success: true, deletedRuns: deleted };
  });
}

async function uploadDetail(store: Store, upload: NonNullable<Awaited<ReturnType<typeof findUpload>>>): Promise<UploadDetailResponse> {
  // A duplicate has no results of its own: it shows the original's, which are the same.
  const testResults = await runTestResults(store, upload.duplicate_of ?? upload.id);
  const testsByStatus = { passed: 0, failed: 0, timedOut: 0, skipped: 0 };
  const categories = new Map<string, number>();
  let duration = 0;
  for (const r of testResults) {
    testsByStatus[r.status]++;
    duration += r.duration_ms;
    if (isFailure(r.status) && r.error_category) categories.set(r.error_category, (categories.get(r.error_category) ?? 0) + 1);
  }
  return {
    upload,
    testResults,
    testsByStatus,
    errorPatterns: [...categories].map(([category, count]) => ({ category, count })).sort((a, b) => b.count - a.count),
    flakyTests: testResults.filter((r) => r.retry_count > 0),
    stats: {
      total: upload.total_tests,
      passed: upload.passed_tests,
      failed: upload.failed_tests,
      skipped: upload.skipped_tests,
      flaky: upload.flaky_tests,
      // SPEC.md section 9: passed / total × 100.
      pass_rate: upload.total_tests > 0 ? (upload.passed_tests / upload.total_tests) * 100 : 0,
      duration_ms: upload.duration_ms || duration,
    },
  };
}
