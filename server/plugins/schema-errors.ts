import type { FastifySchemaValidationError } from 'fastify';

/**
 * The text of a request that failed its Zod schema, in the words Ajv used before the routes
 * moved to Zod (`querystring/days must be <= 3650`), so every 400 names the part, the field and
 * the rule: clients and tests read these texts. fastify-type-provider-zod hands over each Zod
 * issue as `{ instancePath, keyword: issue.code, message, params: the issue's other fields }`.
 */
export function formatSchemaErrors(errors: FastifySchemaValidationError[], dataVar: string): Error {
  return new Error(errors.map((e) => issueText(e, dataVar)).join(', '));
}

function issueText(e: FastifySchemaValidationError, dataVar: string): string {
  const params = e.params as Record<string, unknown>;
  const where = `${dataVar}${e.instancePath === '/' ? '' : e.instancePath}`;
  switch (e.keyword) {
    case 'too_big':
    case 'too_small': {
      const big = e.keyword === 'too_big';
      const limit = String(big ? params.maximum : params.minimum);
      if (params.origin === 'string') return `${where} must NOT have ${big ? 'more' : 'fewer'} than ${limit} characters`;
      if (params.origin === 'array' || params.origin === 'set') return `${where} must NOT have ${big ? 'more' : 'fewer'} than ${limit} items`;
      return `${where} must be ${big ? '<' : '>'}${params.inclusive === false ? '' : '='} ${limit}`;
    }
    case 'invalid_type':
      // A missing property: said of the object that lacks it, as Ajv said it. Zod keeps no
      // input in its issues, only its words: "expected string, received undefined".
      if (/received undefined$/.test(e.message ?? '')) {
        const slash = where.lastIndexOf('/');
        return `${where.slice(0, slash)} must have required property '${where.slice(slash + 1)}'`;
      }
      return `${where} must be ${params.expected === 'int' ? 'integer' : String(params.expected)}`;
    case 'invalid_value':
      return `${where} must be one of ${(params.values as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'unrecognized_keys':
      return `${where} has unknown properties ${(params.keys as string[]).map((k) => JSON.stringify(k)).join(', ')}`;
    case 'invalid_format':
      if (params.format === 'regex') return `${where} must match pattern "${regexSource(String(params.pattern))}"`;
      return `${where} must match format "${String(params.format)}"`;
    default:
      // Custom checks (refinements) word their own message.
      return `${where} ${e.message}`;
  }
}

/** Zod names a regex as `/source/flags`; Ajv named the pattern by its source. */
function regexSource(pattern: string): string {
  return pattern.startsWith('/') ? pattern.slice(1, pattern.lastIndexOf('/')) : pattern;
}
