import type { FastifyInstance, FastifyReply } from 'fastify';
import { FLAKY_TREND_PERIOD } from '../analytics/dashboard.js';
import type { AnalyticsRunner } from '../analytics/runner.js';
import { today } from '../analytics/windows.js';

const daysQuery = (defaultDays: number) =>
  ({ type: 'object', properties: { days: { type: 'integer', minimum: 0, maximum: 3650, default: defaultDays } } }) as const;
const member = { auth: { access: 'member' as const, apiToken: true } };
// Titles can hold any character; Fastify decodes each path parameter once.
const text = { type: 'string', minLength: 1, maxLength: 2000 } as const;

type Days = { Querystring: { days: number } };

// Answers come as JSON text, cached per query and arguments.
const sendJson = async (reply: FastifyReply, text: Promise<string>) => reply.type('application/json; charset=utf-8').send(await text);

export function registerAnalyticsRoutes(app: FastifyInstance, options: { analytics: AnalyticsRunner; now: () => number }): void {
  const { analytics, now } = options;

  app.get<Days>('/api/dashboard', { schema: { querystring: daysQuery(30) }, config: member }, async (request, reply) => {
    const t = now();
    return sendJson(reply, analytics.json(today(t), 'dashboard', { days: request.query.days, now: t }));
  });

  app.get<{ Querystring: { period: number } }>(
    '/api/flaky-trends',
    { schema: { querystring: { type: 'object', properties: { period: { type: 'integer', minimum: 1, maximum: 365, default: FLAKY_TREND_PERIOD } } } }, config: member },
    async (request, reply) => {
      const t = now();
      return sendJson(reply, analytics.json(today(t), 'flakyTrends', { period: request.query.period, now: t }));
    },
  );

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
