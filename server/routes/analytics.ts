import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TrendDirection } from '../../core/analytics/formulas.js';
import { DASHBOARD_FLAKY_LIMIT, FLAKY_TREND_PERIOD } from '../analytics/dashboard.js';
import type { AnalyticsRunner } from '../analytics/runner.js';
import { today } from '../analytics/windows.js';
import { FLAKY_SORT_KEYS, type FlakySortKey } from '../../core/api/analytics.js';
import type { Severity } from '../store/read/flaky-page.js';
import { isOwnerName } from '../../core/owners/codeowners.js';
import { UNOWNED } from '../../core/owners/test-owners.js';
import { pageOf, pagingProperties, sendPage, type PagingQuery } from './paging.js';
import { callerKey } from '../plugins/authenticate.js';

const daysQuery = (defaultDays: number) =>
  ({ type: 'object', properties: { days: { type: 'integer', minimum: 0, maximum: 3650, default: defaultDays } } }) as const;
const member = { auth: { access: 'member' as const, apiToken: 'read' as const } };
// The dashboard's and flaky screen's branch filter (absent: every branch), as runs store it.
const branchProperty = { branch: { type: 'string', minLength: 1, maxLength: 1000 } } as const;
// The owner filter: an owner as stored ('@team', 'dev@example.com'), or 'unowned'.
const ownerProperty = { owner: { type: 'string', minLength: 1, maxLength: 200 } } as const;
const ownerProblem = (owner: string): string | null =>
  owner === UNOWNED || isOwnerName(owner) ? null : `owner must be an owner as CODEOWNERS names one (@user, @org/team or an email address) or ${UNOWNED}, not ${JSON.stringify(owner)}`;
// Titles can hold any character; Fastify decodes each path parameter once.
const text = { type: 'string', minLength: 1, maxLength: 2000 } as const;

type DaysPaged = { Querystring: { days: number } & PagingQuery };
const daysPaged = (defaultDays: number) => ({ ...daysQuery(defaultDays), properties: { ...daysQuery(defaultDays).properties, ...pagingProperties } }) as const;

const SEVERITIES = ['severe', 'moderate', 'minor'] as const;
const DIRECTIONS = ['declining', 'improving', 'stable', 'new'] as const;
interface FlakyQuery extends PagingQuery {
  days: number;
  search?: string;
  browser?: string;
  /** The deep-link values of Flaky Tests (docs/screens.md#flaky-test-analysis): a severity or a trend direction. */
  severity?: Severity | TrendDirection;
  trend?: TrendDirection;
  critical?: boolean;
  sort?: FlakySortKey;
  order?: 'asc' | 'desc';
  branch?: string;
  owner?: string;
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
    ...branchProperty,
    ...ownerProperty,
  },
} as const;
// Each sort's natural direction when none is given: the worst first.
const DEFAULT_ORDER: Record<FlakySortKey, 'asc' | 'desc'> = { score: 'desc', pass_rate: 'asc', runs: 'desc', last_failure: 'desc', open_age: 'asc' };
const isSeverity = (v: string | undefined): v is Severity => (SEVERITIES as readonly string[]).includes(v ?? '');

interface TrendQuery {
  period: number;
  page?: number;
  pageSize: number;
  counts: boolean;
  direction?: TrendDirection;
  file?: string;
  test?: string;
  branch?: string;
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
    ...branchProperty,
  },
} as const;

// Answers come as JSON text, cached per query and arguments.
const sendJson = async (reply: FastifyReply, text: Promise<string>) => reply.type('application/json; charset=utf-8').send(await text);

export function registerAnalyticsRoutes(app: FastifyInstance, options: { analytics: AnalyticsRunner; now: () => number }): void {
  const { analytics, now } = options;

  // `limit`: how many of the most critical flaky tests to list (the totals cover them all).
  const dashboardQuery = {
    type: 'object',
    properties: { ...daysQuery(30).properties, limit: { type: 'integer', minimum: 1, maximum: 100, default: DASHBOARD_FLAKY_LIMIT }, ...branchProperty, ...ownerProperty },
  } as const;
  app.get<{ Querystring: { days: number; limit: number; branch?: string; owner?: string } }>('/api/dashboard', { schema: { querystring: dashboardQuery }, config: member }, async (request, reply) => {
    const t = now();
    const { days, limit, branch, owner } = request.query;
    if (owner !== undefined && ownerProblem(owner)) return reply.code(400).send({ error: ownerProblem(owner) });
    return sendJson(reply, analytics.json(today(t), 'dashboard', { days, now: t, limit, ...(branch !== undefined ? { branch } : {}), ...(owner !== undefined ? { owner } : {}) }, callerKey(request)));
  });

  // The owner filter's choices: every owner a test has.
  app.get('/api/owners', { config: member }, async (request, reply) => sendJson(reply, analytics.json(today(now()), 'owners', {}, callerKey(request))));

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
      ...(q.branch !== undefined ? { branch: q.branch } : {}),
    }, callerKey(request));
    if (q.page !== undefined || q.counts) return sendJson(reply, json);
    // The bare list (docs/api.md#lists-and-paging): the first page, the total in a header. At most 200 records to read back.
    const { items, total } = JSON.parse(await json) as { items: unknown[]; total: number };
    return reply.header('x-total-count', String(total)).type('application/json; charset=utf-8').send(JSON.stringify(items));
  });

  app.get<{ Querystring: FlakyQuery }>('/api/flaky-tests', { schema: { querystring: flakyQuery }, config: member }, async (request, reply) => {
    const t = now();
    const q = request.query;
    if (q.owner !== undefined && ownerProblem(q.owner)) return reply.code(400).send({ error: ownerProblem(q.owner) });
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
      return sendPage(reply, request.query.page !== undefined, analytics.json(today(now()), 'testDetails', args, callerKey(request)));
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
      return sendJson(reply, analytics.json(today(t), 'dailyStats', { file: testFile, title: testTitle, browser, days: request.query.days, now: t }, callerKey(request)));
    },
  );

  app.get<DaysPaged>('/api/slow-tests', { schema: { querystring: daysPaged(30) }, config: member }, async (request, reply) => {
    const t = now();
    const args = { days: request.query.days, now: t, ...pageOf(request.query) };
    return sendPage(reply, request.query.page !== undefined, analytics.json(today(t), 'slowTests', args, callerKey(request)));
  });

  // docs/screens.md#time-window: the trends window is 30 days.
  app.get('/api/trends', { config: member }, async (request, reply) => {
    const t = now();
    return sendJson(reply, analytics.json(today(t), 'trendDays', { days: 30, now: t }, callerKey(request)));
  });

  app.get<DaysPaged>('/api/error-patterns', { schema: { querystring: daysPaged(30) }, config: member }, async (request, reply) => {
    const t = now();
    const args = { days: request.query.days, now: t, ...pageOf(request.query) };
    return sendPage(reply, request.query.page !== undefined, analytics.json(today(t), 'errorPatterns', args, callerKey(request)));
  });
}
