import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { DEFAULT_SCRYPT, type ScryptParams } from './auth/passwords.js';
import { registerAuthentication } from './plugins/authenticate.js';
import { registerErrorHandler } from './plugins/error-handler.js';
import { registerJsonBodyParser } from './plugins/json-body.js';
import { registerSecurity } from './plugins/security.js';
import { defaultUiDir, registerStaticUi } from './plugins/static-ui.js';
import { registerAiRoutes } from './routes/ai.js';
import { createAnalyticsRunner } from './analytics/runner.js';
import { registerAnalyticsRoutes } from './routes/analytics.js';
import { registerAuthRoutes } from './routes/auth.js';
import { registerHealthRoutes } from './routes/health.js';
import { registerUploadRoutes } from './routes/uploads.js';
import type { Store } from './store/open.js';
import { databaseSecret } from './store/settings.js';

export interface AppOptions {
  store: Store;
  /** The address `serve` binds: on loopback the Host header is checked. */
  host?: string;
  /** The built UI; default dist/ui beside the bundle. null serves the API only. */
  uiDir?: string | null;
  logger?: FastifyServerOptions['logger'];
  loggerInstance?: FastifyServerOptions['loggerInstance'];
  /** Largest accepted upload, in bytes (default 100 MB). */
  bodyLimit?: number;
  sessionIdleMs?: number;
  maxFailedLogins?: number;
  loginRateLimit?: { max: number; windowMs: number };
  scrypt?: ScryptParams;
  /** Send cookies with Secure (behind HTTPS). */
  secureCookies?: boolean;
  requestTimeoutMs?: number;
  trustProxy?: boolean;
  now?: () => number;
  /** Compute cold analytics answers in a worker thread (default true for a database file). */
  analyticsWorker?: boolean;
}

export const DEFAULT_BODY_LIMIT = 100 * 1024 * 1024;

/** The whole server, ready but not listening: `serve` listens, tests use inject(). */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const host = options.host ?? '127.0.0.1';
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const now = options.now ?? Date.now;
  const sessionIdleMs = options.sessionIdleMs ?? 12 * 60 * 60 * 1000;
  const app = Fastify({
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance } : { logger: options.logger ?? false }),
    bodyLimit,
    // A request that has not finished after this long (a stalled upload) is cut off.
    requestTimeout: options.requestTimeoutMs ?? 5 * 60 * 1000,
    trustProxy: options.trustProxy ?? false,
    routerOptions: { ignoreTrailingSlash: true },
  });
  const xsrfSecret = await databaseSecret(options.store, 'xsrf_secret');

  registerErrorHandler(app, { bodyLimit });
  registerJsonBodyParser(app);
  registerSecurity(app, { host });
  registerAuthentication(app, { store: options.store, xsrfSecret, sessionIdleMs, now });
  registerHealthRoutes(app, { store: options.store, bodyLimit });
  registerAuthRoutes(app, {
    store: options.store,
    xsrfSecret,
    sessionIdleMs,
    maxFailedLogins: options.maxFailedLogins ?? 5,
    loginRateLimit: options.loginRateLimit ?? { max: 10, windowMs: 60_000 },
    scrypt: options.scrypt ?? DEFAULT_SCRYPT,
    secureCookies: options.secureCookies ?? false,
    now,
  });
  registerUploadRoutes(app, { store: options.store, bodyLimit });
  const analytics = createAnalyticsRunner(options.store, { worker: options.analyticsWorker ?? true });
  app.addHook('onClose', () => analytics.close());
  registerAnalyticsRoutes(app, { analytics, now });
  registerAiRoutes(app, { store: options.store, now });
  await registerStaticUi(app, options.uiDir === undefined ? defaultUiDir() : options.uiDir);
  await app.ready();
  return app;
}
