/**
 * POST /api/ai-analysis's body (docs/api.md#ai-analysis): its JSON schema, and the check that
 * applies it. The body may be 10 MB: it is decoded, parsed and checked in the analysis worker
 * (worker.ts), never on the server's thread, so the route declares the schema for its
 * description but does not have Fastify validate it.
 */
import { type AiAnalysisRequest } from '../../core/api/ai.js';
import { AI_REQUEST_LIMITS as LIMITS } from '../../core/api/ai-limits.js';
import { HttpError } from '../errors.js';
import { decodeBody, parseJsonBody, type bodyCharset } from '../upload-body.js';

export type BodyCharset = ReturnType<typeof bodyCharset>;

const optionalText = (maxLength: number) => ({ type: ['string', 'null'], maxLength }) as const;

// Exactly the fields of docs/api.md#ai-analysis at every level: anything else could reach the
// remote model, so it is refused by name (unknownProperty).
export const analysisBody = {
  type: 'object',
  required: ['testSummary', 'recentResults'],
  additionalProperties: false,
  properties: {
    testSummary: {
      type: 'object',
      required: ['testTitle', 'browser'],
      additionalProperties: false,
      properties: {
        testTitle: { type: 'string', minLength: 1, maxLength: LIMITS.title },
        browser: { type: 'string', minLength: 1, maxLength: LIMITS.browser },
        passRate: { type: 'number', minimum: 0, maximum: 100, default: 0 },
        totalRuns: { type: 'integer', minimum: 0, maximum: 1e9, default: 0 },
        failedRuns: { type: 'integer', minimum: 0, maximum: 1e9, default: 0 },
      },
    },
    recentResults: {
      type: 'array',
      maxItems: LIMITS.recentResults,
      items: {
        type: 'object',
        required: ['status'],
        additionalProperties: false,
        properties: {
          status: { enum: ['passed', 'failed', 'timedOut', 'skipped', 'interrupted'] },
          duration: { anyOf: [{ type: 'number' }, { type: 'string', maxLength: 30 }, { type: 'null' }] },
          errorMessage: optionalText(LIMITS.errorMessage),
          errorLocation: optionalText(LIMITS.shortText),
          errorStack: optionalText(LIMITS.errorStack),
          codeSnippet: optionalText(LIMITS.codeSnippet),
          testSteps: optionalText(LIMITS.testSteps),
          testFile: optionalText(LIMITS.shortText),
          runDate: optionalText(100),
        },
      },
    },
  },
} as const;

/** The part of JSON Schema the body's schema uses. */
interface Schema {
  type?: string | readonly string[];
  properties?: Record<string, Schema>;
  required?: readonly string[];
  items?: Schema;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  enum?: readonly unknown[];
  anyOf?: readonly Schema[];
  default?: unknown;
}

/**
 * The first property of `value` that `schema` does not declare, with its path (such as
 * `recentResults[3].prompt`) and what is allowed there; null when there is none. A validator
 * would drop it silently; the caller is told instead. One pass over the body.
 */
export function unknownProperty(schema: Schema, value: unknown, path = ''): { path: string; allowed: string[] } | null {
  if (Array.isArray(value)) {
    if (!schema.items) return null;
    for (let i = 0; i < value.length; i++) {
      const found = unknownProperty(schema.items, value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (value === null || typeof value !== 'object' || !schema.properties) return null;
  for (const [key, child] of Object.entries(value)) {
    // A hostile key may be megabytes long: the answer names its start.
    const shown = key.length > 100 ? `${key.slice(0, 100)}…` : key;
    const name = path ? `${path}.${shown}` : shown;
    if (!Object.hasOwn(schema.properties, key)) return { path: name, allowed: Object.keys(schema.properties) };
    const found = unknownProperty(schema.properties[key]!, child, name);
    if (found) return found;
  }
  return null;
}

const typeOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

const hasType = (value: unknown, type: string): boolean =>
  type === 'integer' ? Number.isInteger(value) : type === 'number' ? typeof value === 'number' && Number.isFinite(value) : typeOf(value) === type;

/** Characters as JSON Schema counts them (code points); the fast path is the common case. */
const lengthOf = (text: string, max: number): number => (text.length <= max ? text.length : [...text].length);

/**
 * Why `value` does not fit `schema` (worded as Fastify's validator words it, path first), or
 * null; fills in defaults as it goes. Every value is looked at once.
 */
function mismatch(schema: Schema, value: unknown, path: string): string | null {
  if (schema.anyOf) return schema.anyOf.some((s) => mismatch(s, value, path) === null) ? null : `${path} must match a schema in anyOf`;
  if (schema.enum) return schema.enum.includes(value) ? null : `${path} must be equal to one of the allowed values`;
  const types = typeof schema.type === 'string' ? [schema.type] : (schema.type ?? []);
  if (types.length > 0 && !types.some((t) => hasType(value, t))) return `${path} must be ${types.join(',')}`;
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) return `${path} must NOT have fewer than ${schema.minLength} characters`;
    if (schema.maxLength !== undefined && lengthOf(value, schema.maxLength) > schema.maxLength) return `${path} must NOT have more than ${schema.maxLength} characters`;
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) return `${path} must be >= ${schema.minimum}`;
    if (schema.maximum !== undefined && value > schema.maximum) return `${path} must be <= ${schema.maximum}`;
  }
  if (Array.isArray(value)) {
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return `${path} must NOT have more than ${schema.maxItems} items`;
    if (schema.items) {
      for (let i = 0; i < value.length; i++) {
        const found = mismatch(schema.items, value[i], `${path}/${i}`);
        if (found) return found;
      }
    }
  } else if (value !== null && typeof value === 'object' && schema.properties) {
    const object = value as Record<string, unknown>;
    for (const name of schema.required ?? []) if (!Object.hasOwn(object, name)) return `${path} must have required property '${name}'`;
    for (const [name, child] of Object.entries(schema.properties)) {
      if (!Object.hasOwn(object, name)) {
        if (child.default !== undefined) object[name] = child.default;
        continue;
      }
      // As Fastify's validator did (coerceTypes): a figure sent as text is read as the number.
      const text = object[name];
      if (typeof text === 'string' && (child.type === 'number' || child.type === 'integer') && text.trim() !== '' && Number.isFinite(Number(text))) object[name] = Number(text);
      const found = mismatch(child, object[name], `${path}/${name}`);
      if (found) return found;
    }
  }
  return null;
}

/** The request in `value`, checked against the schema; a 400 that names the problem otherwise. */
export function checkAnalysisRequest(value: unknown): AiAnalysisRequest {
  const unknown = unknownProperty(analysisBody, value);
  if (unknown) throw new HttpError(400, `Invalid request: unknown property "${unknown.path}"; allowed there: ${unknown.allowed.join(', ')}`);
  const problem = mismatch(analysisBody, value, 'body');
  if (problem) throw new HttpError(400, `Invalid request: ${problem}`);
  return value as AiAnalysisRequest;
}

/** The request in the body's bytes: decoded by its charset, parsed and checked. */
export function parseAnalysisRequest(bytes: Uint8Array, charset: BodyCharset): AiAnalysisRequest {
  return checkAnalysisRequest(parseJsonBody(decodeBody(bytes, charset)));
}
