import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { createRequire } from 'node:module';
import { DEFAULT_LOCKOUT } from './auth/lockout.js';
import { DEFAULT_SCRYPT, type ScryptParams } from './auth/passwords.js';
import { registerAuthentication } from './plugins/authenticate.js';
import { registerErrorHandler } from './plugins/error-handler.js';
import { registerJsonBodyParser } from './plugins/json-body.js';
import { registerOpenApi } from './plugins/openapi.js';
import { registerSecurity, trustHops } from './plugins/security.js';
import { registerUploadAdmission, type UploadPace } from './plugins/upload-admission.js';
import { defaultUiDir, registerStaticUi } from './plugins/static-ui.js';
import { defaultTraceViewer, registerTraceViewer, type TraceViewer } from './plugins/trace-viewer.js';
import { registerAiRoutes } from './routes/ai.js';
import { createAnalyticsRunner } from './analytics/runner.js';
import { computeAheadEvery } from './analytics/compute-ahead.js';
import { AI_PER_CALLER } from './ai/admission.js';
import { createAiRunner, type AiRunner } from './ai/runner.js';
import { DatabaseHealth } from './database-health.js';
import { OutageLog } from './outage-log.js';
import { registerAnalyticsRoutes } from './routes/analytics.js';
import { registerAuditRoutes } from './routes/audit.js';
import { registerAuthRoutes } from './routes/auth.js';
import { registerOidcRoutes } from './routes/oidc.js';
import type { OidcClient } from './auth/oidc-client.js';
import type { OidcSettings } from './auth/oidc-settings.js';
import { registerBranchRoutes } from './routes/branches.js';
import { registerAttemptComparisonRoutes } from './routes/attempt-comparison.js';
import { registerEvidenceRoutes } from './routes/evidence.js';
import { registerGateRoutes } from './routes/gate.js';
import { registerHealthRoutes } from './routes/health.js';
import { EvidenceHealth } from './evidence-health.js';
import { registerQuarantineRoutes } from './routes/quarantine.js';
import { registerSettingsRoutes } from './routes/settings.js';
import { registerTraceLinkRoutes } from './routes/trace-links.js';
import { registerUploadRoutes } from './routes/uploads.js';
import { registerUserRoutes } from './routes/users.js';
import { registerWebhookRoutes } from './routes/webhooks.js';
import { createDrain, type DrainOptions } from './webhooks/drain.js';
import type { AnyStore } from './store/engine/types.js';
import type { EvidenceStore } from './store/evidence/evidence-store.js';
import { NoEvidenceStore } from './store/evidence/no-store.js';
import { databaseSecret } from './store/accounts/settings.js';
import { createWriter } from './writer/runner.js';
import { loggedRequest } from './logging.js';

export interface AppOptions {
  /** A SQLite file or a PostgreSQL database; several servers may share the latter. */
  store: AnyStore;
  /** Where evidence blobs live (a folder or a bucket); none given: the server keeps no evidence. */
  evidence?: EvidenceStore;
  /** Largest evidence blob accepted by PUT /api/evidence/{sha256} (default 100 MB). */
  evidenceMaxBytes?: number;
  /** The address `serve` binds: on loopback the Host header is checked. */
  host?: string;
  /** The built UI; default dist/ui beside the bundle. null serves the API only. */
  uiDir?: string | null;
  /** Playwright's trace viewer, served under /trace/; default the one built beside the bundle. */
  traceViewer?: TraceViewer | null;
  logger?: FastifyServerOptions['logger'];
  loggerInstance?: FastifyServerOptions['loggerInstance'];
  /** Largest accepted upload, in bytes (default 100 MB). */
  bodyLimit?: number;
  sessionIdleMs?: number;
  /** However active, a session ends this long after sign-in (default 7 days). */
  sessionMaxAgeMs?: number;
  /** Failed sign-ins from one address that lock the account for that address (default 5)... */
  maxFailedLogins?: number;
  /** ...and for how long (default 15 minutes). */
  lockoutMs?: number;
  /**
   * Bound of the account-wide sign-in delay, at least its first step of 1 s (default 8 s).
   * Tests lower it; no flag, setting or request reaches it.
   */
  accountMaxDelayMs?: number;
  loginRateLimit?: { max: number; windowMs: number };
  scrypt?: ScryptParams;
  /** Send cookies with Secure even on requests that did not come over HTTPS. */
  secureCookies?: boolean;
  /** Send Strict-Transport-Security on answers over HTTPS. */
  hsts?: boolean;
  requestTimeoutMs?: number;
  /** How fast an upload's body must arrive (default: 16 KB/s after 10 s, no pause of 15 s). */
  uploadPace?: UploadPace;
  /**
   * Which proxies to believe about the client's address and protocol: a number of hops (the
   * first on this machine), or a comma list of addresses and CIDRs. Never `true`: trusting
   * every hop lets a client name any address in X-Forwarded-For.
   */
  trustProxy?: number | string;
  now?: () => number;
  /** Compute cold analytics answers in a worker thread (default true for a database file). */
  analyticsWorker?: boolean;
  /**
   * Start that worker before the app is ready, not on the first cold answer, and compute the
   * kept answers again after each change of the data (serve; tests need not).
   */
  warmAnalytics?: boolean;
  /** Store uploads and run reviews and deletes in a worker thread (default true for a database file). */
  writerWorker?: boolean;
  /** Parse and run AI analyses in a worker thread (default true for a database file). */
  aiWorker?: boolean;
  /** Where AI analyses run, instead of the one made from aiWorker (tests look at its threads); the app closes it. */
  aiRunner?: AiRunner;
  /** Single sign-on through an OpenID provider (docs/single-sign-on.md); none by default. */
  oidc?: { client: OidcClient; settings: OidcSettings; startRateLimit?: { max: number; windowMs: number } };
  /** false: the password sign-in is turned off (with single sign-on). Default true. */
  localLogin?: boolean;
  /** The origin people's browsers use when a proxy stands in front (the sign-on's callback address). */
  publicUrl?: URL;
  /** Send webhook alerts from this server (serve does; tests that do not test alerts need not). */
  webhookDrain?: DrainOptions;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The evidence store: blobs by SHA-256, read by the evidence route and the trace viewer. */
    evidence: EvidenceStore;
  }
}

export const DEFAULT_BODY_LIMIT = 100 * 1024 * 1024;

/** The largest body of any call but an upload: sign-in, reviews, quarantine, the CI gate. */
export const SMALL_BODY_LIMIT = 2 * 1024 * 1024;

/** Logged requests keep no secret their URL carries (server/logging.ts). */
function withRedaction(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (typeof logger !== 'object' || logger === null) return logger;
  return { ...logger, serializers: { req: loggedRequest, ...logger.serializers } };
}

/**
 * Fastify's own compilers for JSON Schema (Ajv for requests, fast-json-stringify for answers),
 * loaded only when a route described in JSON Schema needs one: every route of this app is
 * described in Zod and compiled by Zod (plugins/openapi.ts), and Fastify would otherwise load
 * both at construction, about 150 ms of CPU at every start. Resolved from Fastify's own place:
 * they are its dependencies, at the versions it was made with.
 */
const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
type CompilerFactory = (externalSchemas: unknown, options: unknown) => unknown;
function loadedOnUse(name: string): CompilerFactory {
  let factory: CompilerFactory | null = null;
  return (externalSchemas, options) => (factory ??= (fromFastify(name) as () => CompilerFactory)())(externalSchemas, options);
}
export const JSON_SCHEMA_COMPILERS = {
  buildValidator: loadedOnUse('@fastify/ajv-compiler'),
  buildSerializer: loadedOnUse('@fastify/fast-json-stringify-compiler'),
} as NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

/** The whole server, ready but not listening: `serve` listens, tests use inject(). */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const host = options.host ?? '127.0.0.1';
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const now = options.now ?? Date.now;
  const sessionIdleMs = options.sessionIdleMs ?? 12 * 60 * 60 * 1000;
  const sessionMaxAgeMs = options.sessionMaxAgeMs ?? 7 * 24 * 60 * 60 * 1000;
  const app = Fastify({
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance } : { logger: withRedaction(options.logger ?? false) }),
    // Only POST /api/upload takes report-sized bodies (its own limit, --body-limit); every other
    // body is a form or a small JSON call, so a hostile 95 MB sign-in is refused unread.
    bodyLimit: SMALL_BODY_LIMIT,
    // A request that has not finished after this long (a stalled upload) is cut off.
    requestTimeout: options.requestTimeoutMs ?? 5 * 60 * 1000,
    trustProxy: typeof options.trustProxy === 'number' ? trustHops(options.trustProxy) : (options.trustProxy ?? false),
    routerOptions: { ignoreTrailingSlash: true },
    schemaController: { compilersFactory: JSON_SCHEMA_COMPILERS },
  });
  const evidence = options.evidence ?? new NoEvidenceStore();
  app.decorate('evidence', evidence);
  const xsrfSecret = await databaseSecret(options.store, 'xsrf_secret');

  const health = new DatabaseHealth(options.store);
  const outages = new OutageLog(app.log, health);
  app.addHook('onClose', () => health.close());
  // Probing from the start: a balancer's first ask is answered without opening a connection.
  if (options.warmAnalytics) health.start();
  registerErrorHandler(app, { outages });
  registerJsonBodyParser(app);
  registerSecurity(app, { host, hsts: options.hsts ?? false });
  registerAuthentication(app, { store: options.store, xsrfSecret, sessionIdleMs, sessionMaxAgeMs, now, localLogin: options.localLogin ?? true });
  // Before every route: the document is made of the routes' schemas as they are added.
  await registerOpenApi(app);
  registerHealthRoutes(app, { health, evidence: new EvidenceHealth(evidence), outages, bodyLimit });
  const sessionPolicy = { store: options.store, xsrfSecret, sessionIdleMs, sessionMaxAgeMs, secureCookies: options.secureCookies ?? false, now };
  registerAuthRoutes(app, {
    ...sessionPolicy,
    lockout: { maxFailures: options.maxFailedLogins ?? DEFAULT_LOCKOUT.maxFailures, lockMs: options.lockoutMs ?? DEFAULT_LOCKOUT.lockMs },
    loginRateLimit: options.loginRateLimit ?? { max: 10, windowMs: 60_000 },
    scrypt: options.scrypt ?? DEFAULT_SCRYPT,
    localLogin: options.localLogin ?? true,
    oidcName: options.oidc?.settings.displayName ?? null,
    accountMaxDelayMs: options.accountMaxDelayMs,
  });
  if (options.oidc) {
    registerOidcRoutes(app, {
      ...sessionPolicy,
      oidc: options.oidc.client,
      settings: options.oidc.settings,
      publicUrl: options.publicUrl ?? null,
      startRateLimit: options.oidc.startRateLimit ?? { max: 30, windowMs: 60_000 },
    });
  }
  registerUserRoutes(app, { store: options.store, now });
  const writer = createWriter(options.store, { worker: options.writerWorker ?? true, maxUploadBytes: bodyLimit });
  // preClose: before Fastify waits for requests in flight, so an upload being stored rolls back
  // and answers 503 instead of holding a stop for as long as it takes.
  app.addHook('preClose', () => writer.stop());
  // Bodies still arriving: ten full-size ones at most (1 GB by default).
  registerUploadAdmission(app, { bodyLimit, maxBytes: 10 * bodyLimit, pace: options.uploadPace });
  const analytics = createAnalyticsRunner(options.store, { worker: options.analyticsWorker ?? true, now, log: app.log });
  app.addHook('onClose', () => analytics.close());
  if (options.warmAnalytics) {
    await analytics.ready();
    const ahead = computeAheadEvery(analytics, { log: app.log, now });
    app.addHook('preClose', () => ahead.stop());
  }
  registerUploadRoutes(app, { store: options.store, bodyLimit, writer, analytics, now });
  registerAnalyticsRoutes(app, { analytics, now });
  registerBranchRoutes(app, { analytics, now });
  registerAiRoutes(app, { store: options.store, now, runner: options.aiRunner ?? createAiRunner(options.store, { worker: options.aiWorker ?? true, maxWaitingPerCaller: AI_PER_CALLER, evidence }) });
  registerGateRoutes(app, { analytics, now });
  registerEvidenceRoutes(app, { store: options.store, evidence, maxBytes: options.evidenceMaxBytes ?? DEFAULT_BODY_LIMIT, now });
  registerAttemptComparisonRoutes(app, { store: options.store, evidence });
  registerQuarantineRoutes(app, { store: options.store, now });
  registerAuditRoutes(app, { store: options.store });
  registerSettingsRoutes(app, { store: options.store });
  const viewer = options.traceViewer === undefined ? defaultTraceViewer() : options.traceViewer;
  registerTraceLinkRoutes(app, { blobs: evidence, viewer, secret: await databaseSecret(options.store, 'trace_link_secret'), now });
  await registerTraceViewer(app, viewer);
  registerWebhookRoutes(app, { store: options.store, now });
  if (options.webhookDrain) {
    const drain = createDrain(options.store, { log: app.log, ...options.webhookDrain });
    app.addHook('onReady', async () => drain.start());
    // Before the store closes: a send in flight is aborted and its claim given back.
    app.addHook('preClose', () => drain.stop());
  }
  await registerStaticUi(app, options.uiDir === undefined ? defaultUiDir() : options.uiDir);
  await app.ready();
  return app;
}
