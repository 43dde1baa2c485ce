import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorAnswer } from '../../core/api/schemas/errors.js';
import type { AnalyticsRunner } from '../analytics/runner.js';
import { today } from '../analytics/windows.js';
import type { FlakySortKey } from '../../core/api/analytics.js';
import * as s from '../../core/api/schemas/analytics.js';
import type { Severity } from '../store/read/flaky-page.js';
import { isOwnerName } from '../../core/owners/codeowners.js';
import { UNOWNED } from '../../core/owners/test-owners.js';
import { pageOf, sendPage } from './paging.js';
import { sendJsonText } from './json-text.js';
import { callerKey } from '../plugins/authenticate.js';

const member = { auth: { access: 'member' as const, apiToken: 'read' as const } };
const ownerProblem = (owner: string): string | null =>
  owner === UNOWNED || isOwnerName(owner) ? null : `owner must be an owner as CODEOWNERS names one (@user, @org/team or an email address) or ${UNOWNED}, not ${JSON.stringify(owner)}`;

const SEVERITIES = ['severe', 'moderate', 'minor'] as const;
// Each sort's natural direction when none is given: the worst first.
const DEFAULT_ORDER: Record<FlakySortKey, 'asc' | 'desc'> = { score: 'desc', pass_rate: 'asc', runs: 'desc', last_failure: 'desc', open_age: 'asc' };
const isSeverity = (v: string | undefined): v is Severity => (SEVERITIES as readonly string[]).includes(v ?? '');

/**
 * The answers' schemas describe them in the OpenAPI document and cost nothing per call: these
 * routes send the cached answer as JSON text, which Fastify sends as it is, unserialised.
 * Errors are `{ error }` (docs/api.md#errors).
 */
const answers = <T extends z.ZodType>(ok: T) => ({ 200: ok, 400: errorAnswer });

// Answers come as JSON text, cached per query and arguments.
const sendJson = async (reply: FastifyReply, text: Promise<string>) => sendJsonText(reply, await text);

export function registerAnalyticsRoutes(fastify: FastifyInstance, options: { analytics: AnalyticsRunner; now: () => number }): void {
  const { analytics, now } = options;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Analytics'];

  app.get('/api/dashboard', {
    schema: { summary: 'The dashboard of a window', tags, querystring: s.dashboardQuery, response: answers(s.dashboardResponse) },
    config: member,
  }, async (request, reply) => {
    const t = now();
    const { days, limit, branch, owner } = request.query;
    if (owner !== undefined && ownerProblem(owner)) return reply.code(400).send({ error: ownerProblem(owner)! });
    return sendJson(reply, analytics.json(today(t), 'dashboard', { days, now: t, limit, ...(branch !== undefined ? { branch } : {}), ...(owner !== undefined ? { owner } : {}) }, callerKey(request)));
  });

  // The owner filter's choices: every owner a test has.
  app.get('/api/owners', { schema: { summary: 'Every owner a test has', tags, response: answers(s.ownersResponse) }, config: member }, async (request, reply) =>
    sendJson(reply, analytics.json(today(now()), 'owners', {}, callerKey(request))));

  app.get('/api/flaky-trends', {
    schema: { summary: 'Trend records, worst change first', tags, querystring: s.flakyTrendsQuery, response: answers(s.listOrPage(s.trendRecord, s.trendListPage)) },
    config: member,
  }, async (request, reply) => {
    const t = now();
    const q = request.query;
    if ((q.file === undefined) !== (q.test === undefined)) return reply.code(400).send({ error: 'file and test go together: give both to ask for one test\'s trend records' });
    const json = analytics.json(today(t), 'flakyTrends', {
      period: q.period,
      now: t,
      page: q.page ?? 1,
      pageSize: q.counts ? 0 : q.pageSize,
      direction: q.direction ?? null,
      file: q.file ?? null,
      test: q.test ?? null,
      ...(q.branch !== undefined ? { branch: q.branch } : {}),
    }, callerKey(request));
    return sendPage(reply, q.page !== undefined || q.counts === true, json);
  });

  app.get('/api/flaky-tests', {
    schema: { summary: 'Flaky tests, grouped by test', tags, querystring: s.flakyTestsQuery, response: answers(s.listOrPage(s.flakyTestGroup, s.flakyTestsPage)) },
    config: member,
  }, async (request, reply) => {
    const t = now();
    const q = request.query;
    if (q.owner !== undefined && ownerProblem(q.owner)) return reply.code(400).send({ error: ownerProblem(q.owner)! });
    const sort = q.sort ?? 'pass_rate';
    const search = q.search?.trim() ?? '';
    const args = {
      days: q.days,
      now: t,
      ...pageOf(q),
      search: search === '' ? null : search,
      browser: q.browser ?? null,
      severity: isSeverity(q.severity) ? q.severity : null,
      critical: q.critical ?? false,
      trend: q.trend ?? (q.severity && !isSeverity(q.severity) ? q.severity : null),
      sort,
      order: q.order ?? DEFAULT_ORDER[sort],
      ...(q.branch !== undefined ? { branch: q.branch } : {}),
      ...(q.owner !== undefined ? { owner: q.owner } : {}),
    };
    return sendPage(reply, q.page !== undefined, analytics.json(today(t), 'flakyTestsPage', args, callerKey(request)));
  });

  app.get('/api/test-details/:testTitle/:browser', {
    schema: {
      summary: "A test's results on one browser, newest first",
      tags,
      params: s.testDetailsParams,
      querystring: s.testDetailsQuery,
      response: answers(s.listOrPage(s.testResultDetail, s.pagedOf(s.testResultDetail))),
    },
    config: member,
  }, async (request, reply) => {
    const { testTitle, browser } = request.params;
    const args = { title: testTitle, browser, file: request.query.file ?? null, branch: request.query.branch ?? null, ...pageOf(request.query) };
    return sendPage(reply, request.query.page !== undefined, analytics.json(today(now()), 'testDetails', args, callerKey(request)));
  });

  app.get('/api/flaky-tests/:testFile/:testTitle/:browser/daily-stats', {
    schema: { summary: "A test's pass rate per day on one browser", tags, params: s.dailyStatsParams, querystring: s.dailyStatsQuery, response: answers(z.array(s.dailyStat)) },
    config: member,
  }, async (request, reply) => {
    const t = now();
    const { testFile, testTitle, browser } = request.params;
    const { days, branch } = request.query;
    return sendJson(reply, analytics.json(today(t), 'dailyStats', { file: testFile, title: testTitle, browser, days, now: t, branch: branch ?? null }, callerKey(request)));
  });

  app.get('/api/slow-tests', {
    schema: { summary: 'The slowest tests of a window', tags, querystring: s.daysPagedQuery(30), response: answers(s.listOrPage(s.slowTest, s.slowTestsPage)) },
    config: member,
  }, async (request, reply) => {
    const t = now();
    const args = { days: request.query.days, now: t, ...pageOf(request.query) };
    return sendPage(reply, request.query.page !== undefined, analytics.json(today(t), 'slowTests', args, callerKey(request)));
  });

  // docs/screens.md#time-window: the trends window is 30 days.
  app.get('/api/trends', { schema: { summary: 'Results per day over the last 30 days', tags, response: answers(z.array(s.trendDay)) }, config: member }, async (request, reply) => {
    const t = now();
    return sendJson(reply, analytics.json(today(t), 'trendDays', { days: 30, now: t }, callerKey(request)));
  });

  app.get('/api/error-patterns', {
    schema: { summary: 'Failures grouped by error', tags, querystring: s.daysPagedQuery(30), response: answers(s.listOrPage(s.errorPattern, s.errorPatternsPage)) },
    config: member,
  }, async (request, reply) => {
    const t = now();
    const args = { days: request.query.days, now: t, ...pageOf(request.query) };
    return sendPage(reply, request.query.page !== undefined, analytics.json(today(t), 'errorPatterns', args, callerKey(request)));
  });
}
