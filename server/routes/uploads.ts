import type { FastifyInstance } from 'fastify';
import { RUN_RESULT_SORTS, RUN_RESULT_STATUSES, type BulkReviewRequest, type ReviewRequest, type ReviewStatus, type RunResultSort, type RunResultStatus, type UploadResponse } from '../../core/api/uploads.js';
import type { AnalyticsRunner } from '../analytics/runner.js';
import { today } from '../analytics/windows.js';
import { auditRequest } from '../audit.js';
import { HttpError, notFound } from '../errors.js';
import { callerOf } from '../plugins/authenticate.js';
import { readAdminSettings } from '../store/accounts/settings.js';
import type { AnyStore } from '../store/engine/types.js';
import { findUpload, pendingUploads, recentUploadCount, recentUploads } from '../store/write/uploads.js';
import { bodyCharset } from '../upload-body.js';
import type { Writer } from '../writer/runner.js';
import { pageOf, pagingProperties, sendPage, type PagingQuery } from './paging.js';
import { createPolledAnswers } from './polled-answers.js';
import { callerKey } from '../plugins/authenticate.js';

const JSON_TYPE = 'application/json; charset=utf-8';

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

const resultsQuery = {
  type: 'object',
  properties: { ...pagingProperties, status: { enum: RUN_RESULT_STATUSES }, search: { type: 'string', maxLength: 200 }, sort: { enum: RUN_RESULT_SORTS } },
} as const;

export function registerUploadRoutes(
  app: FastifyInstance,
  options: { store: AnyStore; bodyLimit: number; writer: Writer; analytics: AnalyticsRunner; now: () => number },
): void {
  const { store, writer, analytics, now } = options;
  const polled = createPolledAnswers(store);

  // The body arrives as bytes and is parsed, checked and stored by the writer worker
  // (upload-body.ts, writer/): tens of megabytes of JSON would hold this thread for seconds.
  app.post<{ Body: Buffer | undefined }>(
    '/api/upload',
    { bodyLimit: options.bodyLimit, config: { rawJsonBody: true, auth: { access: 'member', apiToken: 'upload' } } },
    async (request) => {
      const caller = callerOf(request);
      if (!Buffer.isBuffer(request.body)) throw new HttpError(400, 'The request body is empty: send a JSON object');
      const via = caller.kind === 'api-token' ? `token ${caller.tokenName}` : null;
      const result = await writer.upload(request.body, bodyCharset(request.headers['content-type']), caller.user.id, via);
      request.log.info({ runId: result.runId, tests: result.tests, duplicate: result.duplicate, by: caller.user.username }, 'report uploaded');
      // A token made with the approve scope, of a user who may review, keeps its runs at once
      // (a trusted CI job of the base branch); any other upload waits for a reviewer.
      // With second-person approval on, a token's own approval would be the uploader approving.
      const keep = caller.kind === 'api-token' && caller.scopes.includes('approve') && caller.user.role !== 'member' && !result.duplicate && !(await readAdminSettings(store)).secondPersonApproval;
      const target = { type: 'run', id: result.runId, label: runLabel((await findUpload(store, result.runId))!) };
      await auditRequest(store, request, { action: 'run.upload', target, detail: { tests: result.tests, duplicate: result.duplicate } });
      if (keep) {
        await writer.review([{ id: result.runId, action: 'approve' }], caller.user.id, `kept at upload by token ${caller.tokenName}`);
        await auditRequest(store, request, { action: 'run.approve', target, detail: { keptAtUpload: true } });
      }
      return { success: true, runId: result.runId, testsProcessed: result.tests, duplicate: result.duplicate, status: keep ? 'approved' : 'pending' } satisfies UploadResponse;
    },
  );

  app.get('/api/uploads/pending', { config: { auth: { access: 'member', apiToken: 'read' } } }, async (_request, reply) => {
    const json = await polled(today(now()), 'pending', async () => {
      const uploads = await pendingUploads(store);
      return { uploads, count: uploads.length };
    });
    return reply.type(JSON_TYPE).send(json);
  });

  app.patch<{ Params: { id: number }; Body: ReviewRequest }>(
    '/api/uploads/:id/review',
    { schema: { params: idParams, body: reviewBody }, config: { auth: { access: 'reviewer' } } },
    async (request) => {
      const caller = callerOf(request);
      const { id } = request.params;
      const { secondPersonApproval } = await readAdminSettings(store);
      await writer.review([{ id, action: request.body.action }], caller.user.id, request.body.notes || null, secondPersonApproval);
      const upload = (await findUpload(store, id))!;
      await auditRequest(store, request, { action: `run.${request.body.action}`, target: { type: 'run', id, label: runLabel(upload) }, detail: request.body.notes ? { notes: request.body.notes } : null });
      return { success: true, upload: { id, status: upload.status, reviewed_by_username: upload.reviewed_by_username, reviewed_at: upload.reviewed_at } };
    },
  );

  app.post<{ Body: BulkReviewRequest }>('/api/uploads/bulk-review', { schema: { body: bulkBody }, config: { auth: { access: 'reviewer' } } }, async (request) => {
    const caller = callerOf(request);
    const { secondPersonApproval } = await readAdminSettings(store);
    await writer.review(request.body.uploads, caller.user.id, null, secondPersonApproval);
    for (const { id, action } of request.body.uploads) {
      const upload = await findUpload(store, id);
      await auditRequest(store, request, { action: `run.${action}`, target: { type: 'run', id, label: upload ? runLabel(upload) : null }, detail: { bulk: true } });
    }
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
      config: { auth: { access: 'member', apiToken: 'read' } },
    },
    async (request, reply) => {
      const { status, limit } = request.query;
      const { page, pageSize } = pageOf(request.query);
      const size = request.query.page === undefined && limit !== undefined ? limit : pageSize;
      const json = polled(today(now()), `recent:${status ?? ''}:${page}:${size}`, async () => {
        const [items, total] = await Promise.all([recentUploads(store, { limit: size, offset: (page - 1) * size, ...(status ? { status } : {}) }), recentUploadCount(store, status)]);
        return { items, total, page, pageSize: size };
      });
      return sendPage(reply, request.query.page !== undefined, json);
    },
  );

  // The run, its counts and the table's first page; what grows with the run (its results) is
  // read in the analytics worker, bounded and cached like every analytics answer.
  app.get<{ Params: { id: number } }>('/api/uploads/:id', { schema: { params: idParams }, config: { auth: { access: 'member', apiToken: 'read' } } }, async (request, reply) => {
    const day = today(now());
    const upload = JSON.parse(await polled(day, `upload:${request.params.id}`, () => findUpload(store, request.params.id))) as Awaited<ReturnType<typeof findUpload>>;
    if (!upload) throw notFound('Upload');
    // A duplicate has no results of its own: it shows the original's, which are the same.
    const summary = await analytics.json(day, 'runSummary', { runId: upload.id, resultsOf: upload.duplicate_of ?? upload.id }, callerKey(request));
    return reply.type(JSON_TYPE).send(`{"upload":${JSON.stringify(upload)},${summary.slice(1)}`);
  });

  // The run details table: paged like every list (paging.ts), searched, filtered and sorted here.
  app.get<{ Params: { id: number }; Querystring: PagingQuery & { status?: RunResultStatus; search?: string; sort?: RunResultSort } }>(
    '/api/uploads/:id/results',
    { schema: { params: idParams, querystring: resultsQuery }, config: { auth: { access: 'member', apiToken: 'read' } } },
    async (request, reply) => {
      const day = today(now());
      const upload = JSON.parse(await polled(day, `upload:${request.params.id}`, () => findUpload(store, request.params.id))) as Awaited<ReturnType<typeof findUpload>>;
      if (!upload) throw notFound('Upload');
      const { status = 'all', search = '', sort = 'status' } = request.query;
      const args = { runId: upload.duplicate_of ?? upload.id, ...pageOf(request.query), status, search: search.trim().toLowerCase(), sort };
      return sendPage(reply, request.query.page !== undefined, analytics.json(day, 'runResults', args, callerKey(request)));
    },
  );

  app.delete<{ Params: { id: number } }>('/api/test-run/:id', { schema: { params: idParams }, config: { auth: { access: 'reviewer' } } }, async (request) => {
    // Read before it goes: the record says what the run was, not just its number.
    const upload = await findUpload(store, request.params.id);
    if (!(await writer.deleteRun(request.params.id))) throw notFound('Test run');
    await auditRequest(store, request, { action: 'run.delete', target: { type: 'run', id: request.params.id, label: upload ? runLabel(upload) : null }, detail: upload ? { status: upload.status, branch: upload.git_branch, commit: upload.git_commit, uploadedBy: upload.uploaded_by_username } : null });
    request.log.info({ runId: request.params.id, by: callerOf(request).user.username }, 'test run deleted');
    return { success: true };
  });

  app.delete('/api/clear-all', { config: { auth: { access: 'admin' } } }, async (request) => {
    const deleted = await writer.clearAll();
    await auditRequest(store, request, { action: 'runs.clear', detail: { runs: deleted } });
    request.log.warn({ runs: deleted, by: callerOf(request).user.username }, 'all test data cleared');
    return { success: true, deletedRuns: deleted };
  });
}

/** How a run reads in the audit trail: its file, branch and commit. */
function runLabel(upload: { file_path: string | null; git_branch: string | null; git_commit: string | null }): string {
  return [upload.file_path ?? 'report', upload.git_branch ? `on ${upload.git_branch}` : null, upload.git_commit ? `at ${upload.git_commit.slice(0, 12)}` : null].filter(Boolean).join(' ');
}
