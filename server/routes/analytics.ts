import type { FastifyInstance } from 'fastify';
import { dashboard, FLAKY_TREND_PERIOD } from '../analytics/dashboard.js';
import { flakyGroups, flakyTrends } from '../analytics/flaky.js';
import { dailyStats, errorPatterns, slowTests, testDetails, trendDays } from '../analytics/reports.js';
import { lastDays, today } from '../analytics/windows.js';
import { AnalyticsCache } from '../analytics/cache.js';
import type { Store } from '../store/open.js';

const daysQuery = (defaultDays: number) =>
  ({ type: 'object', properties: { days: { type: 'integer', minimum: 0, maximum: 3650, default: defaultDays } } }) as const;
const member = { auth: { access: 'member' as const, apiToken: true } };
// Titles can hold any character; Fastify decodes each path parameter once.
const text = { type: 'string', minLength: 1, maxLength: 2000 } as const;

export function registerAnalyticsRoutes(app: FastifyInstance, options: { store: Store; now: () => number }): void {
  const { store, now } = options;
  const cache = new AnalyticsCache(store);
  const cached = <T>(request: { url: string }, compute: () => T): T => cache.get(request.url, today(now()), compute);

  app.get<{ Querystring: { days: number } }>('/api/dashboard', { schema: { querystring: daysQuery(30) }, config: member }, async (request) =>
    cached(request, () => dashboard(store, request.query.days, now())),
  );

  app.get<{ Querystring: { period: number } }>(
    '/api/flaky-trends',
    { schema: { querystring: { type: 'object', properties: { period: { type: 'integer', minimum: 1, maximum: 365, default: FLAKY_TREND_PERIOD } } } }, config: member },
    async (request) => cached(request, () => flakyTrends(store, request.query.period, today(now()))),
  );

  app.get<{ Querystring: { days: number } }>('/api/flaky-tests', { schema: { querystring: daysQuery(0) }, config: member }, async (request) =>
    cached(request, () => flakyGroups(store, lastDays(request.query.days, now()))),
  );

  app.get<{ Params: { testTitle: string; browser: string } }>(
    '/api/test-details/:testTitle/:browser',
    { schema: { params: { type: 'object', required: ['testTitle', 'browser'], properties: { testTitle: text, browser: text } } }, config: member },
    async (request) => cached(request, () => testDetails(store, { title: request.params.testTitle, browser: request.params.browser }, 500)),
  );

  app.get<{ Params: { testFile: string; testTitle: string; browser: string }; Querystring: { days: number } }>(
    '/api/flaky-tests/:testFile/:testTitle/:browser/daily-stats',
    {
      schema: { params: { type: 'object', required: ['testFile', 'testTitle', 'browser'], properties: { testFile: text, testTitle: text, browser: text } }, querystring: daysQuery(0) },
      config: member,
    },
    async (request) =>
      cached(request, () => dailyStats(store, { file: request.params.testFile, title: request.params.testTitle, browser: request.params.browser }, lastDays(request.query.days, now()))),
  );

  app.get<{ Querystring: { days: number } }>('/api/slow-tests', { schema: { querystring: daysQuery(30) }, config: member }, async (request) =>
    cached(request, () => slowTests(store, lastDays(request.query.days, now()), 500)),
  );

  // SPEC.md section 9: the trends window is 30 days.
  app.get('/api/trends', { config: member }, async (request) => cached(request, () => trendDays(store, lastDays(30, now()))));

  app.get<{ Querystring: { days: number } }>('/api/error-patterns', { schema: { querystring: daysQuery(30) }, config: member }, async (request) =>
    cached(request, () => errorPatterns(store, lastDays(request.query.days, now()), 200)),
  );
}
