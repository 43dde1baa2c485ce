import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { listOrPage, pagedOf } from '../../core/api/schemas/analytics.js';
import { errorAnswer } from '../../core/api/schemas/errors.js';
import * as uploadSchemas from '../../core/api/schemas/uploads.js';
import type { UploadResponse } from '../../core/api/uploads.js';
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
import { pageOf, sendPage } from './paging.js';
import { createPolledAnswers } from './polled-answers.js';
import { callerKey } from '../plugins/authenticate.js';

const JSON_TYPE = 'application/json; charset=utf-8';
// An answer already JSON text: Fastify sends a string as it is, without the route's serializer.
const sendText = (reply: FastifyReply, json: string) => reply.type(JSON_TYPE).send(json);

const tags = ['Uploads and review'];
const read = { auth: { access: 'member' as const, apiToken: 'read' as const } };
const answers = <T extends z.ZodType>(ok: T) => ({ 200: ok, 400: errorAnswer, 404: errorAnswer });

export function registerUploadRoutes(
  fastify: FastifyInstance,
  options: { store: AnyStore; bodyLimit: number; writer: Writer; analytics: AnalyticsRunner; now: () => number },
): void {
  const { store, writer, analytics, now } = options;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const polled = createPolledAnswers(store);

  // The body arrives as bytes and is parsed, checked and stored by the writer worker
  // (upload-body.ts, writer/): tens of megabytes of JSON would hold this thread for seconds.
  app.post(
    '/api/upload',
    {
      bodyLimit: options.bodyLimit,
      schema: {
        summary: 'Upload a Playwright JSON report',
        tags,
        rawBody: {
          contentType: 'application/json',
          description: '`{ testResults, metadata }`: testResults is the Playwright JSON report; metadata (all optional): project, gitCommit, gitBranch, buildId, buildUrl, browser, fileName, runName, fileSize, uploadTime, codeowners, evidence (docs/api.md#uploads-and-review). Read by the writer, never parsed here.',
        },
        response: { ...answers(uploadSchemas.uploadResponse), 413: errorAnswer, 503: errorAnswer },
      },
      config: { rawJsonBody: true, auth: { access: 'member', apiToken: 'upload' } },
    },
    async (request) => {
      const caller = callerOf(request);
      // The raw JSON body parser (plugins/json-body.ts) hands over the bytes.
      const body: unknown = request.body;
      if (!Buffer.isBuffer(body)) throw new HttpError(400, 'The request body is empty: send a JSON object');
      const via = caller.kind === 'api-token' ? `token ${caller.tokenName}` : null;
      const result = await writer.upload(body, bodyCharset(request.headers['content-type']), caller.user.id, via);
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

  // The read answers go out as JSON text (polled-answers.ts, the analytics worker), which Fastify
  // sends as it is: their schemas describe them in the document and cost nothing per call.
  app.get('/api/uploads/pending', { schema: { summary: 'Uploads waiting for review', tags, response: answers(uploadSchemas.pendingUploadsResponse) }, config: read }, async (_request, reply) => {
    const json = await polled(today(now()), 'pending', async () => {
      const uploads = await pendingUploads(store);
      return { uploads, count: uploads.length };
    });
    return sendText(reply, json);
  });

  app.patch(
    '/api/uploads/:id/review',
    {
      schema: { summary: 'Approve or reject an upload', tags, params: uploadSchemas.idParams, body: uploadSchemas.reviewRequest, response: { ...answers(uploadSchemas.reviewResponse), 409: errorAnswer } },
      config: { auth: { access: 'reviewer' } },
    },
    async (request) => {
      const caller = callerOf(request);
      const { id } = request.params;
      const { secondPersonApproval } = await readAdminSettings(store);
      await writer.review([{ id, action: request.body.action }], caller.user.id, request.body.notes || null, secondPersonApproval);
      const upload = (await findUpload(store, id))!;
      await auditRequest(store, request, { action: `run.${request.body.action}`, target: { type: 'run', id, label: runLabel(upload) }, detail: request.body.notes ? { notes: request.body.notes } : null });
      return { success: true as const, upload: { id, status: upload.status, reviewed_by_username: upload.reviewed_by_username, reviewed_at: upload.reviewed_at } };
    },
  );

  app.post('/api/uploads/bulk-review', {
    schema: { summary: 'Review many uploads at once', tags, body: uploadSchemas.bulkReviewRequest, response: { ...answers(uploadSchemas.bulkReviewResponse), 409: errorAnswer } },
    config: { auth: { access: 'reviewer' } },
  }, async (request) => {
    const caller = callerOf(request);
    const { secondPersonApproval } = await readAdminSettings(store);
    await writer.review(request.body.uploads, caller.user.id, null, secondPersonApproval);
    for (const { id, action } of request.body.uploads) {
      const upload = await findUpload(store, id);
      await auditRequest(store, request, { action: `run.${action}`, target: { type: 'run', id, label: upload ? runLabel(upload) : null }, detail: { bulk: true } });
    }
    return { success: true as const, reviewed: request.body.uploads.length };
  });

  // Paged like every list (paging.ts); `limit` sizes the bare list as it always did.
  app.get(
    '/api/recent-uploads',
    {
      schema: {
        summary: 'Uploads, newest first',
        tags,
        querystring: uploadSchemas.recentUploadsQuery,
        response: answers(listOrPage(uploadSchemas.recentUpload, pagedOf(uploadSchemas.recentUpload))),
      },
      config: read,
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
  app.get('/api/uploads/:id', {
    schema: { summary: "A run's details", tags, params: uploadSchemas.idParams, response: answers(uploadSchemas.uploadDetailResponse) },
    config: read,
  }, async (request, reply) => {
    const day = today(now());
    const upload = JSON.parse(await polled(day, `upload:${request.params.id}`, () => findUpload(store, request.params.id))) as Awaited<ReturnType<typeof findUpload>>;
    if (!upload) throw notFound('Upload');
    // A duplicate has no results of its own: it shows the original's, which are the same.
    const summary = await analytics.json(day, 'runSummary', { runId: upload.id, resultsOf: upload.duplicate_of ?? upload.id }, callerKey(request));
    return sendText(reply, `{"upload":${JSON.stringify(upload)},${summary.slice(1)}`);
  });

  // The run details table: paged like every list (paging.ts), searched, filtered and sorted here.
  app.get(
    '/api/uploads/:id/results',
    {
      schema: {
        summary: "A page of a run's results",
        tags,
        params: uploadSchemas.idParams,
        querystring: uploadSchemas.runResultsQuery,
        response: answers(listOrPage(uploadSchemas.testResultRow, pagedOf(uploadSchemas.testResultRow))),
      },
      config: read,
    },
    async (request, reply) => {
      const day = today(now());
      const upload = JSON.parse(await polled(day, `upload:${request.params.id}`, () => findUpload(store, request.params.id))) as Awaited<ReturnType<typeof findUpload>>;
      if (!upload) throw notFound('Upload');
      const { status = 'all', search = '', sort = 'status' } = request.query;
      const args = { runId: upload.duplicate_of ?? upload.id, ...pageOf(request.query), status, search: search.trim().toLowerCase(), sort };
      return sendPage(reply, request.query.page !== undefined, analytics.json(day, 'runResults', args, callerKey(request)));
    },
  );

  app.delete('/api/test-run/:id', {
    schema: { summary: 'Delete a run and everything under it', tags, params: uploadSchemas.idParams, response: answers(uploadSchemas.successAnswer) },
    config: { auth: { access: 'reviewer' } },
  }, async (request) => {
    // Read before it goes: the record says what the run was, not just its number.
    const upload = await findUpload(store, request.params.id);
    if (!(await writer.deleteRun(request.params.id))) throw notFound('Test run');
    await auditRequest(store, request, { action: 'run.delete', target: { type: 'run', id: request.params.id, label: upload ? runLabel(upload) : null }, detail: upload ? { status: upload.status, branch: upload.git_branch, commit: upload.git_commit, uploadedBy: upload.uploaded_by_username } : null });
    request.log.info({ runId: request.params.id, by: callerOf(request).user.username }, 'test run deleted');
    return { success: true as const };
  });

  app.delete('/api/clear-all', { schema: { summary: 'Delete every run', tags, response: answers(uploadSchemas.clearAllAnswer) }, config: { auth: { access: 'admin' } } }, async (request) => {
    const deleted = await writer.clearAll();
    await auditRequest(store, request, { action: 'runs.clear', detail: { runs: deleted } });
    request.log.warn({ runs: deleted, by: callerOf(request).user.username }, 'all test data cleared');
    return { success: true as const, deletedRuns: deleted };
  });
}

/** How a run reads in the audit trail: its file, branch and commit. */
function runLabel(upload: { file_path: string | null; git_branch: string | null; git_commit: string | null }): string {
  return [upload.file_path ?? 'report', upload.git_branch ? `on ${upload.git_branch}` : null, upload.git_commit ? `at ${upload.git_commit.slice(0, 12)}` : null].filter(Boolean).join(' ');
}
