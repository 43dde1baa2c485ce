/**
 * Structural check of a parsed value: returns the first problem as "which field, what is
 * wrong", or null for a report. Only fields the normaliser relies on are required; unknown
 * keys are ignored, since every Playwright version adds some.
 */
export function validateReport(value: unknown): string | null {
  if (!isObject(value)) return `expected a JSON object at the top level, found ${kind(value)}`;
  if (!('config' in value)) return 'the field "config" is missing';
  if (!isObject(value.config)) return `"config" must be an object, found ${kind(value.config)}`;
  if (!('suites' in value)) return 'the field "suites" is missing';
  if (!Array.isArray(value.suites)) return `"suites" must be an array, found ${kind(value.suites)}`;
  const projects = value.config.projects;
  if (projects !== undefined && !Array.isArray(projects)) return `"config.projects" must be an array, found ${kind(projects)}`;
  if (value.errors !== undefined && !Array.isArray(value.errors)) return `"errors" must be an array, found ${kind(value.errors)}`;
  const errors = (value.errors ?? []) as unknown[];
  for (let i = 0; i < errors.length; i++) {
    const problem = validateError(errors[i], `errors[${i}]`);
    if (problem) return problem;
  }
  for (let i = 0; i < value.suites.length; i++) {
    const problem = validateSuite(value.suites[i], `suites[${i}]`);
    if (problem) return problem;
  }
  return null;
}

function validateSuite(suite: unknown, path: string): string | null {
  if (!isObject(suite)) return `"${path}" must be an object, found ${kind(suite)}`;
  if (suite.specs !== undefined && !Array.isArray(suite.specs)) return `"${path}.specs" must be an array`;
  const specs = (suite.specs ?? []) as unknown[];
  for (let i = 0; i < specs.length; i++) {
    const problem = validateSpec(specs[i], `${path}.specs[${i}]`);
    if (problem) return problem;
  }
  if (suite.suites !== undefined) {
    if (!Array.isArray(suite.suites)) return `"${path}.suites" must be an array`;
    for (let i = 0; i < suite.suites.length; i++) {
      const problem = validateSuite(suite.suites[i], `${path}.suites[${i}]`);
      if (problem) return problem;
    }
  }
  return null;
}

function validateSpec(spec: unknown, path: string): string | null {
  if (!isObject(spec)) return `"${path}" must be an object, found ${kind(spec)}`;
  if (typeof spec.title !== 'string') return `the field "${path}.title" is missing`;
  if (typeof spec.file !== 'string') return `the field "${path}.file" is missing`;
  for (const field of ['line', 'column'] as const) {
    if (spec[field] !== undefined && !isNumber(spec[field])) return `"${path}.${field}" must be a number, found ${kind(spec[field])}`;
  }
  if (!Array.isArray(spec.tests)) return `the field "${path}.tests" is missing`;
  for (let i = 0; i < spec.tests.length; i++) {
    const test: unknown = spec.tests[i];
    const at = `${path}.tests[${i}]`;
    if (!isObject(test)) return `"${at}" must be an object, found ${kind(test)}`;
    if (!Array.isArray(test.results)) return `the field "${at}.results" is missing`;
    for (let j = 0; j < test.results.length; j++) {
      const result: unknown = test.results[j];
      const r = `${at}.results[${j}]`;
      if (!isObject(result)) return `"${r}" must be an object`;
      if (typeof result.status !== 'string') return `the field "${r}.status" is missing`;
      if (result.duration !== undefined && !isNumber(result.duration)) return `"${r}.duration" must be a number, found ${kind(result.duration)}`;
      if (result.retry !== undefined && !isNumber(result.retry)) return `"${r}.retry" must be a number, found ${kind(result.retry)}`;
      if (result.startTime !== undefined && typeof result.startTime !== 'string') return `"${r}.startTime" must be a string, found ${kind(result.startTime)}`;
      if (result.error !== undefined) {
        const problem = validateError(result.error, `${r}.error`);
        if (problem) return problem;
      }
      if (result.errors !== undefined) {
        if (!Array.isArray(result.errors)) return `"${r}.errors" must be an array`;
        for (let k = 0; k < result.errors.length; k++) {
          const problem = validateError(result.errors[k], `${r}.errors[${k}]`);
          if (problem) return problem;
        }
      }
    }
  }
  return null;
}

/** Only the fields that are read as text: anything else in an error is ignored. */
function validateError(error: unknown, path: string): string | null {
  if (!isObject(error)) return `"${path}" must be an object, found ${kind(error)}`;
  for (const field of ['message', 'stack', 'value', 'snippet'] as const) {
    if (error[field] !== undefined && typeof error[field] !== 'string') return `"${path}.${field}" must be a string, found ${kind(error[field])}`;
  }
  return null;
}

function isNumber(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
