import type { FastifyInstance } from 'fastify';
import type { GateRequest } from '../analytics/gate.js';
import type { AnalyticsRunner } from '../analytics/runner.js';
import { today } from '../analytics/windows.js';
import { callerKey } from '../plugins/authenticate.js';

const text = (max: number) => ({ type: 'string', maxLength: max }) as const;
const count = { type: 'integer', minimum: 0, maximum: 10_000_000 } as const;

/** What `flakeboard check --server` sends: the failing tests of its report, not the report. */
const checkBody = {
  type: 'object',
  additionalProperties: false,
  required: ['tests', 'counts', 'days'],
  properties: {
    base: { anyOf: [text(255), { type: 'null' }] },
    days: { type: 'integer', minimum: 1, maximum: 365 },
    counts: {
      type: 'object',
      additionalProperties: false,
      required: ['tests', 'failed', 'flaky', 'skipped'],
      properties: { tests: count, failed: count, flaky: count, skipped: count },
    },
    tests: {
      type: 'array',
      maxItems: 5_000,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['title', 'titlePath', 'file', 'project', 'browser', 'passedOnRetry'],
        properties: {
          title: text(2_000),
          titlePath: { type: 'array', maxItems: 100, items: text(2_000) },
          file: text(2_000),
          project: text(500),
          browser: text(500),
          passedOnRetry: { type: 'boolean' },
        },
      },
    },
  },
} as const;

/** POST /api/check: the CI gate, a read call open to API tokens; computed in the analytics worker. */
export function registerGateRoutes(app: FastifyInstance, options: { analytics: AnalyticsRunner; now: () => number }): void {
  app.post<{ Body: Omit<GateRequest, 'now'> }>(
    '/api/check',
    { schema: { body: checkBody }, config: { auth: { access: 'member', apiToken: 'read' } } },
    async (request, reply) => {
      const t = options.now();
      const answer = await options.analytics.json(today(t), 'gate', { ...request.body, base: request.body.base ?? null, now: t }, callerKey(request));
      return reply.type('application/json; charset=utf-8').send(answer);
    },
  );
}
