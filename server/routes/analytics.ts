import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TrendDirection } from '../../core/analytics/formulas.js';
import { DASHBOARD_FLAKY_LIMIT, FLAKY_TREND_PERIOD } from '../analytics/dashboard.js';
import type { AnalyticsRunner } from '../analytics/runner.js';
import { today } from '../analytics/windows.js';

const daysQuery = (defaultDays: number) =>
  ({ type: 'object', properties: { days: { type: 'integer', minimum: 0, maximum: 3650, default: defaultDays } } }) as const;
const member = { auth: { access: 'member' as const, apiToken: true } };
// Titles can hold any character; Fastify decodes each path parameter once.
const text = { type: 'string', minLength: 1, maxLength: 2000 } as const;

type Days = { Querystring: { days: number } };

interface TrendQuery {
  period: number;
  page?: number;
  pageSize: number;
  counts: boolean;
  direction?: TrendDirection;
  file?: string;
  test?: string;
}

/** GET /api/flaky-trends: the README's "Lists and paging"; without `page`, a bounded first page. */
const trendQuery = {
  type: 'object',
  properties: {
    period: { type: 'integer', minimum: 1, maximum: 365, default: FLAKY_TREND_PERIOD },
    page: { type: 'integer', minimum: 1, maximum: 1_000_000 },
    pageSize: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
    // The counts per direction alone (the page object without items).
    counts: { type: 'boolean', default: false },
    direction: { type: 'string', enum: ['declining', 'improving', 'stable', 'new'] },
    file: text,
    test: text,
  },
} as const;

// Answers come as JSON text, cached per query and arguments.
const sendJson = async (reply: FastifyReply, text: Promise<string>) => reply.type('application/json; charset=utf-8').send(await text);

export function registerAnalyticsRoutes(app: FastifyInstance, options: { analytics: AnalyticsRunner; now: () => number }): void {
  const { analytics, now } = options;

  // `limit`: how many of the most critical flaky tests to list (the totals cover them all).
  const dashboardQuery = { type: 'object', properties: { ...daysQuery(30).properties, limit: { type: 'integer', minimum: 1, maximum: 100, default: DASHBOARD_FLAKY_LIMIT } } } as const;
  app.get<{ Querystring: { days: number; limit: number } }>('/api/dashboard', { schema: { querystring: dashboardQuery }, config: member }, async (request, reply) => {
    const t = now();
    return sendJson(reply, analytics.json(today(t), 'dashboard', { days: request.query.days, now: t, limit: request.query.limit }));
  });

  app.get<{ Querystring: TrendQuery }>('/api/flaky-trends', { schema: { querystring: trendQuery }, config: member }, async (request, reply) => {
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
    });
    if (q.page !== undefined || q.counts) return sendJson(reply, json);
    // SPEC.md's bare list: the first page, the total in a header. At most 200 records to read back.
    const { items, total } = JSON.parse(await json) as { items: unknown[]; total: number };
    return reply.header('x-total-count', String(total)).type('application/json; charset=utf-8').send(JSON.stringify(items));
  });

  app.get<Days>('/api/flaky-tests', { schema: { querystring: daysQuery(0) }, config: member }, async (request, reply) => {
    const t = now();
    return sendJson(reply, analytics.json(today(t), 'flakyGroups', { days: request.query.days, now: t }));
  });

  app.get<{ Params: { testTitle: string; browser: string } }>(
    '/api/test-details/:testTitle/:browser',
    { schema: { params: { type: 'object', required: ['testTitle', 'browser'], properties: { testTitle: text, browser: text } } }, config: member },
    async (request, reply) => sendJson(reply, analytics.json(today(now()), 'testDetails', { title: request.params.testTitle, browser: request.params.browser })),
  );

  app.get<{ Params: { testFile: string; testTitle: string; browser: string }; Querystring: { days: number } }>(
    '/api/flaky-tests/:testFile/:testTitle/:browser/daily-stats',
    {
      schema: { params: { type: 'object', required: ['testFile', 'testTitle', 'browser'], properties: { testFile: text, testTitle: text, browser: text } }, querystring: daysQuery(0) },
      config: member,
    },
    async (request, reply) => {
      const t = now();
      const { testFile, testTitle, browser } = request.params;
      return sendJson(reply, analytics.json(today(t), 'dailyStats', { file: testFile, title: testTitle, browser, days: request.query.days, now: t }));
    },
  );

  app.get<Days>('/api/slow-tests', { schema: { querystring: daysQuery(30) }, config: member }, async (request, reply) => {
    const t = now();
    return sendJson(reply, analytics.json(today(t), 'slowTests', { days: request.query.days, now: t }));
  });

  // SPEC.md section 9: the trends window is 30 days.
  app.get('/api/trends', { config: member }, async (request, reply) => {
    const t = now();
    return sendJson(reply, analytics.json(today(t), 'trendDays', { days: 30, now: t }));
  });

  app.get<Days>('/api/error-patterns', { schema: { querystring: daysQuery(30) }, config: member }, async (request, reply) => {
    const t = now();
    return sendJson(reply, analytics.json(today(t), 'errorPatterns', { days: request.query.days, now: t }));
  });
}
