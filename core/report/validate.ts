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
  if (!Array.isArray(spec.tests)) return `the field "${path}.tests" is missing`;
  for (let i = 0; i < spec.tests.length; i++) {
    const test: unknown = spec.tests[i];
    const at = `${path}.tests[${i}]`;
    if (!isObject(test)) return `"${at}" must be an object, found ${kind(test)}`;
    if (!Array.isArray(test.results)) return `the field "${at}.results" is missing`;
    for (let j = 0; j < test.results.length; j++) {
      const result: unknown = test.results[j];
      if (!isObject(result)) return `"${at}.results[${j}]" must be an object`;
      if (typeof result.status !== 'string') return `the field "${at}.results[${j}].status" is missing`;
    }
  }
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
