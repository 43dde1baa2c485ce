import type { FastifyInstance, FastifyReply } from 'fastify';
import { FLAKY_TREND_PERIOD } from '../analytics/dashboard.js';
import type { AnalyticsRunner } from '../analytics/runner.js';
import { today } from '../analytics/windows.js';
import { FLAKY_SORT_KEYS, type FlakySortKey } from '../../core/api/analytics.js';
import type { TrendDirection } from '../../core/analytics/formulas.js';
import type { Severity } from '../store/flaky-page.js';
import { pageOf, pagingProperties, sendPage, type PagingQuery } from './paging.js';

const daysQuery = (defaultDays: number) =>
  ({ type: 'object', properties: { days: { type: 'integer', minimum: 0, maximum: 3650, default: defaultDays } } }) as const;
const member = { auth: { access: 'member' as const, apiToken: true } };
// Titles can hold any character; Fastify decodes each path parameter once.
const text = { type: 'string', minLength: 1, maxLength: 2000 } as const;

type Days = { Querystring: { days: number } };
type DaysPaged = { Querystring: { days: number } & PagingQuery };
const daysPaged = (defaultDays: number) => ({ ...daysQuery(defaultDays), properties: { ...daysQuery(defaultDays).properties, ...pagingProperties } }) as const;

const SEVERITIES = ['severe', 'moderate', 'minor'] as const;
const DIRECTIONS = ['declining', 'improving', 'stable', 'new'] as const;
interface FlakyQuery extends PagingQuery {
  days: number;
  search?: string;
  browser?: string;
  /** SPEC.md section 2's deep-link values: a severity or a trend direction. */
  severity?: Severity | TrendDirection;
  trend?: TrendDirection;
  critical?: boolean;
  sort?: FlakySortKey;
  order?: 'asc' | 'desc';
}
const flakyQuery = {
  type: 'object',
  properties: {
    ...daysQuery(0).properties,
    ...pagingProperties,
    search: { type: 'string', maxLength: 200 },
    browser: { type: 'string', minLength: 1, maxLength: 200 },
    severity: { enum: [...SEVERITIES, ...DIRECTIONS] },
    trend: { enum: DIRECTIONS },
    critical: { type: 'boolean' },
    sort: { enum: FLAKY_SORT_KEYS },
    order: { enum: ['asc', 'desc'] },
  },
} as const;
// Each sort's natural direction when none is given: the worst first.
const DEFAULT_ORDER: Record<FlakySortKey, 'asc' | 'desc'> = { score: 'desc', pass_rate: 'asc', runs: 'desc', last_failure: 'desc' };
const isSeverity = (v: string | undefined): v is Severity => (SEVERITIES as readonly string[]).includes(v ?? '');

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

  app.get<{ Querystring: FlakyQuery }>('/api/flaky-tests', { schema: { querystring: flakyQuery }, config: member }, async (request, reply) => {
    const t = now();
    const q = request.query;
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
    };
    return sendPage(reply, q.page !== undefined, analytics.json(today(t), 'flakyTestsPage', args));
  });

  app.get<{ Params: { testTitle: string; browser: string }; Querystring: PagingQuery & { file?: string } }>(
    '/api/test-details/:testTitle/:browser',
    {
      schema: {
        params: { type: 'object', required: ['testTitle', 'browser'], properties: { testTitle: text, browser: text } },
        querystring: { type: 'object', properties: { ...pagingProperties, file: text } },
      },
      config: member,
    },
    async (request, reply) => {
      const { testTitle, browser } = request.params;
      const args = { title: testTitle, browser, file: request.query.file ?? null, ...pageOf(request.query) };
      return sendPage(reply, request.query.page !== undefined, analytics.json(today(now()), 'testDetails', args));
    },
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

  app.get<DaysPaged>('/api/slow-tests', { schema: { querystring: daysPaged(30) }, config: member }, async (request, reply) => {
    const t = now();
    const args = { days: request.query.days, now: t, ...pageOf(request.query) };
    return sendPage(reply, request.query.page !== undefined, analytics.json(today(t), 'slowTests', args));
  });

  // SPEC.md section 9: the trends window is 30 days.
  app.get('/api/trends', { config: member }, async (request, reply) => {
    const t = now();
    return sendJson(reply, analytics.json(today(t), 'trendDays', { days: 30, now: t }));
  });

  app.get<DaysPaged>('/api/error-patterns', { schema: { querystring: daysPaged(30) }, config: member }, async (request, reply) => {
    const t = now();
    const args = { days: request.query.days, now: t, ...pageOf(request.query) };
    return sendPage(reply, request.query.page !== undefined, analytics.json(today(t), 'errorPatterns', args));
  });
}
