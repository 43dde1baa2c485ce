import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema, FastifySchemaCompiler } from 'fastify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { $ZodType } from 'zod/v4/core';
import { formatSchemaErrors } from './schema-errors.js';

/** Where the OpenAPI document and the reference page generated from it are served. */
export const OPENAPI_PATH = '/api/openapi.json';
export const API_DOCS_PREFIX = '/api/docs';

const PARTS = ['params', 'querystring', 'body', 'headers', 'response'] as const;

/**
 * A route's raw body, one Fastify does not parse (a report or an evidence blob streamed to its
 * writer): a body schema would make Fastify validate what it never read, so such a route names
 * its body here, for the document alone.
 */
export interface RawBody {
  contentType: string;
  description: string;
}

declare module 'fastify' {
  interface FastifySchema {
    /** The OpenAPI document's one-line name of the operation. */
    summary?: string;
    description?: string;
    tags?: readonly string[];
    hide?: boolean;
    rawBody?: RawBody;
  }
}

export interface RegisteredRoute {
  method: string;
  url: string;
  schema: FastifySchema | undefined;
}

const registered = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/** Every route the app registered after registerOpenApi, for the test that each is in the document. */
export const registeredRoutes = (app: FastifyInstance): readonly RegisteredRoute[] => registered.get(app) ?? [];

/** What the page's interceptors use of the browser (the server's types have no DOM). */
interface BrowserPage {
  localStorage: { getItem(key: string): string | null };
  document: { cookie: string };
  location: { href: string };
}

export const isZodSchema = (value: unknown): value is $ZodType => value instanceof $ZodType;

function isZodPart(part: (typeof PARTS)[number], value: unknown): boolean {
  if (part !== 'response') return isZodSchema(value);
  return typeof value === 'object' && value !== null && Object.values(value).some(isZodSchema);
}

/**
 * A route whose schemas are Zod is validated and serialised by Zod; the others keep Ajv. Part of
 * registerOpenApi; on its own for an app built of a few route sets (a test's).
 */
export function registerZodCompilers(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as FastifySchema | undefined;
    if (schema && PARTS.some((part) => isZodPart(part, schema[part]))) {
      route.validatorCompiler ??= validatorCompiler as FastifySchemaCompiler<FastifySchema>;
      route.serializerCompiler ??= serializerCompiler as FastifySerializerCompiler<FastifySchema>;
      route.schemaErrorFormatter ??= formatSchemaErrors;
    }
  });
}

/**
 * The OpenAPI document of every route (`@fastify/swagger`, from the routes' schemas) at
 * OPENAPI_PATH, and its reference page (`@fastify/swagger-ui`) under API_DOCS_PREFIX. Must be
 * registered before the routes: both collect routes as they are added.
 *
 * A route whose schemas are Zod is validated and serialised by Zod (fastify-type-provider-zod),
 * per route, so a route still described in JSON Schema keeps Fastify's Ajv and fast-json-stringify.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  const routes: RegisteredRoute[] = [];
  registered.set(app, routes);
  registerZodCompilers(app);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, schema: route.schema as FastifySchema | undefined });
    // The page's own files hold nothing of this server (the swagger-ui bundle, our initializer):
    // a browser opens them without a bearer header. The document they show is a member call.
    if (route.url.startsWith(API_DOCS_PREFIX) && !/\/(json|yaml)$/.test(route.url)) {
      route.config = { ...route.config, auth: { access: 'public' } };
    }
  });

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'flakeboard API',
        description: 'The JSON API the UI, `flakeboard upload`, `check` and `mcp --server` call. Sign in (POST /api/auth/login) and send `Authorization: Bearer <token>`, or an API token. What the figures mean and the rules of every call: docs/api.md.',
        version: '1',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'A session token from POST /api/auth/login, or an API token (`flakeboard token create`).' } } },
      security: [{ bearer: [] }],
    },
    transform: (document) => {
      const schema = document.schema as FastifySchema | undefined;
      if (!schema) return { schema: {}, url: document.url };
      // JSON Schema parts (a route not yet on Zod) go through as they are; Zod parts are converted.
      const { rawBody, ...rest } = schema;
      const json: Record<string, unknown> = {};
      const zod: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(rest)) {
        const part = PARTS.find((p) => p === key);
        (part && !isZodPart(part, value) ? json : zod)[key] = value;
      }
      const converted = jsonSchemaTransform({ ...document, schema: zod });
      const raw = rawBody ? { body: { type: 'string', format: 'binary', description: rawBody.description }, consumes: [rawBody.contentType] } : {};
      return { schema: { ...json, ...converted.schema, ...raw } as FastifySchema, url: converted.url };
    },
  });

  await app.register(fastifySwaggerUi, {
    routePrefix: API_DOCS_PREFIX,
    // The page sends the signed-in session's bearer token (and the XSRF header the state-changing
    // calls need) with every call, the document's included; without a session, to sign in.
    uiConfig: {
      // No top bar: it offers to explore any URL, and this page shows one document.
      layout: 'BaseLayout',
      docExpansion: 'list',
      deepLinking: true,
      tryItOutEnabled: false,
      // Serialised into the page's script by their source text: each must stand alone.
      requestInterceptor: function (request: { headers: Record<string, string> }) {
        const page = globalThis as unknown as BrowserPage;
        const token = page.localStorage.getItem('auth_token');
        if (token) request.headers.Authorization = 'Bearer ' + token;
        const xsrf = /(?:^|;\s*)XSRF-TOKEN=([^;]*)/.exec(page.document.cookie);
        if (xsrf) request.headers['X-XSRF-TOKEN'] = decodeURIComponent(xsrf[1]!);
        return request;
      },
      responseInterceptor: function (response: { status: number; url: string }) {
        const page = globalThis as unknown as BrowserPage;
        if (response.status === 401 && /\/json$/.test(response.url)) page.location.href = '/#/login';
        return response;
      },
    } as Record<string, unknown>,
    theme: { title: 'flakeboard API reference' },
    // The server's own Content-Security-Policy (plugins/security.ts) covers the page: scripts from
    // this origin only, none inline.
    staticCSP: false,
  });

  app.get(OPENAPI_PATH, { schema: { hide: true }, config: { auth: { access: 'member', apiToken: 'read' } } }, async () => app.swagger());
}
