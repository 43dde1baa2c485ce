import { at, pathText, REPORT_LIMITS, tooDeep, type FieldPath } from './limits.js';

/**
 * Structural check of a parsed value: the first problem as "which field, what is wrong", or
 * null for a report. Only fields the normaliser reads are checked, and each for the type it
 * is read as, so nothing downstream can trip over a hostile value; unknown keys are ignored,
 * since every Playwright version adds some. Walks use explicit stacks and depth limits
 * (limits.ts): a report nested a million deep is refused, never a stack overflow.
 *
 * The parts are exported so a report read in pieces (stream.ts) is checked the same way.
 */
export interface ReportProblem {
  text: string;
  /** True when the report is well-formed but past one of REPORT_LIMITS. */
  limit: boolean;
}

type Problem = ReportProblem | null;
type Obj = Record<string, unknown>;

export function validateReport(value: unknown): Problem {
  if (!isObject(value)) return shape(`expected a JSON object at the top level, found ${kind(value)}`);
  if (!('config' in value)) return shape('the field "config" is missing');
  const problem = validateConfig(value.config);
  if (problem) return problem;
  if (!('suites' in value)) return shape('the field "suites" is missing');
  if (!Array.isArray(value.suites)) return shape(`"suites" must be an array, found ${kind(value.suites)}`);
  const tail = validateErrors(value.errors) ?? validateStats(value.stats);
  if (tail) return tail;
  for (let i = 0; i < value.suites.length; i++) {
    const suiteProblem = validateSuite(value.suites[i], i);
    if (suiteProblem) return suiteProblem;
  }
  return null;
}

export function validateConfig(config: unknown): Problem {
  if (!isObject(config)) return shape(`"config" must be an object, found ${kind(config)}`);
  const path = at(null, 'config');
  const projects = config.projects;
  if (projects !== undefined) {
    if (!Array.isArray(projects)) return shape(`"config.projects" must be an array, found ${kind(projects)}`);
    for (let i = 0; i < projects.length; i++) {
      const project: unknown = projects[i];
      const p = at(at(path, 'projects'), i);
      if (!isObject(project)) return mustBe(p, 'an object', project);
      const problem = optional(project, 'name', 'string', p);
      if (problem) return problem;
      if (project.use !== undefined) {
        if (!isObject(project.use)) return mustBe(at(p, 'use'), 'an object', project.use);
        const use = optional(project.use, 'browserName', 'string', at(p, 'use'));
        if (use) return use;
      }
    }
  }
  const version = optional(config, 'version', 'string', path);
  if (version) return version;
  if (config.shard !== undefined && config.shard !== null) {
    const shard = at(path, 'shard');
    if (!isObject(config.shard)) return mustBe(shard, 'an object', config.shard);
    const numbers = optional(config.shard, 'current', 'integer', shard) ?? optional(config.shard, 'total', 'integer', shard);
    if (numbers) return numbers;
    if (config.shard.current === undefined || config.shard.total === undefined) return missing(at(shard, config.shard.current === undefined ? 'current' : 'total'));
  }
  if (config.metadata !== undefined) {
    const metadata = at(path, 'metadata');
    if (!isObject(config.metadata)) return mustBe(metadata, 'an object', config.metadata);
    const deep = tooDeep(config.metadata, REPORT_LIMITS.valueDepth, metadata);
    if (deep) return nestedTooDeep(deep, 'levels', REPORT_LIMITS.valueDepth);
  }
  return null;
}

export function validateErrors(errors: unknown): Problem {
  if (errors === undefined) return null;
  if (!Array.isArray(errors)) return shape(`"errors" must be an array, found ${kind(errors)}`);
  for (let i = 0; i < errors.length; i++) {
    const problem = validateError(errors[i], at(at(null, 'errors'), i));
    if (problem) return problem;
  }
  return null;
}

export function validateStats(stats: unknown): Problem {
  if (stats === undefined) return null;
  const path = at(null, 'stats');
  if (!isObject(stats)) return mustBe(path, 'an object', stats);
  return optional(stats, 'startTime', 'string', path) ?? optional(stats, 'duration', 'number', path);
}

/** One element of the top-level `suites` (a file) and everything under it. */
export function validateSuite(suite: unknown, index: number): Problem {
  const stack: Array<{ suite: unknown; path: FieldPath; depth: number }> = [{ suite, path: at(at(null, 'suites'), index), depth: 1 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    const { path } = item;
    if (item.depth > REPORT_LIMITS.suiteDepth) return nestedTooDeep(path, 'suites', REPORT_LIMITS.suiteDepth);
    const s = item.suite;
    if (!isObject(s)) return mustBe(path, 'an object', s);
    const title = optional(s, 'title', 'string', path);
    if (title) return title;
    if (s.specs !== undefined && !Array.isArray(s.specs)) return shape(`"${pathText(at(path, 'specs'))}" must be an array`);
    const specs = (s.specs ?? []) as unknown[];
    for (let i = 0; i < specs.length; i++) {
      const problem = validateSpec(specs[i], at(at(path, 'specs'), i));
      if (problem) return problem;
    }
    if (s.suites !== undefined) {
      if (!Array.isArray(s.suites)) return shape(`"${pathText(at(path, 'suites'))}" must be an array`);
      // Pushed in reverse so the first problem in document order is the one reported.
      for (let i = s.suites.length - 1; i >= 0; i--) stack.push({ suite: s.suites[i], path: at(at(path, 'suites'), i), depth: item.depth + 1 });
    }
  }
  return null;
}

function validateSpec(spec: unknown, path: FieldPath): Problem {
  if (!isObject(spec)) return mustBe(path, 'an object', spec);
  if (typeof spec.title !== 'string') return missing(at(path, 'title'));
  if (typeof spec.file !== 'string') return missing(at(path, 'file'));
  const position = optional(spec, 'line', 'integer', path) ?? optional(spec, 'column', 'integer', path);
  if (position) return position;
  if (spec.tags !== undefined) {
    if (!Array.isArray(spec.tags)) return mustBe(at(path, 'tags'), 'an array', spec.tags);
    for (let i = 0; i < spec.tags.length; i++) {
      if (typeof spec.tags[i] !== 'string') return mustBe(at(at(path, 'tags'), i), 'a string', spec.tags[i]);
    }
  }
  if (!Array.isArray(spec.tests)) return missing(at(path, 'tests'));
  for (let i = 0; i < spec.tests.length; i++) {
    const problem = validateTest(spec.tests[i], at(at(path, 'tests'), i));
    if (problem) return problem;
  }
  return null;
}

function validateTest(test: unknown, path: FieldPath): Problem {
  if (!isObject(test)) return mustBe(path, 'an object', test);
  const text = optional(test, 'projectName', 'string', path) ?? optional(test, 'expectedStatus', 'string', path) ?? optional(test, 'status', 'string', path);
  if (text) return text;
  const annotations = validateAnnotations(test.annotations, at(path, 'annotations'));
  if (annotations) return annotations;
  if (!Array.isArray(test.results)) return missing(at(path, 'results'));
  for (let j = 0; j < test.results.length; j++) {
    const problem = validateResult(test.results[j], at(at(path, 'results'), j));
    if (problem) return problem;
  }
  return null;
}

function validateResult(result: unknown, r: FieldPath): Problem {
  if (!isObject(result)) return shape(`"${pathText(r)}" must be an object`);
  if (typeof result.status !== 'string') return missing(at(r, 'status'));
  const simple =
    optional(result, 'duration', 'number', r) ??
    optional(result, 'retry', 'number', r) ??
    optional(result, 'startTime', 'string', r) ??
    optional(result, 'workerIndex', 'number', r);
  if (simple) return simple;
  if (result.error !== undefined) {
    const problem = validateError(result.error, at(r, 'error'));
    if (problem) return problem;
  }
  if (result.errors !== undefined) {
    if (!Array.isArray(result.errors)) return shape(`"${pathText(at(r, 'errors'))}" must be an array`);
    for (let k = 0; k < result.errors.length; k++) {
      const problem = validateError(result.errors[k], at(at(r, 'errors'), k));
      if (problem) return problem;
    }
  }
  if (result.errorLocation !== undefined) {
    const problem = validateLocation(result.errorLocation, at(r, 'errorLocation'));
    if (problem) return problem;
  }
  return (
    validateOutput(result.stdout, at(r, 'stdout')) ??
    validateOutput(result.stderr, at(r, 'stderr')) ??
    validateAttachments(result.attachments, at(r, 'attachments')) ??
    validateSteps(result.steps, at(r, 'steps'))
  );
}

/** Only the fields that are read as text: anything else in an error is ignored. */
function validateError(error: unknown, path: FieldPath): Problem {
  if (!isObject(error)) return mustBe(path, 'an object', error);
  for (const field of ['message', 'stack', 'value', 'snippet'] as const) {
    if (error[field] !== undefined && typeof error[field] !== 'string') return mustBe(at(path, field), 'a string', error[field]);
  }
  if (error.location !== undefined) return validateLocation(error.location, at(path, 'location'));
  return null;
}

function validateLocation(location: unknown, path: FieldPath): Problem {
  if (!isObject(location)) return mustBe(path, 'an object', location);
  return optional(location, 'file', 'string', path) ?? optional(location, 'line', 'number', path) ?? optional(location, 'column', 'number', path);
}

function validateAnnotations(annotations: unknown, path: FieldPath): Problem {
  if (annotations === undefined) return null;
  if (!Array.isArray(annotations)) return mustBe(path, 'an array', annotations);
  for (let i = 0; i < annotations.length; i++) {
    const a: unknown = annotations[i];
    const p = at(path, i);
    if (!isObject(a)) return mustBe(p, 'an object', a);
    const problem = optional(a, 'type', 'string', p) ?? optional(a, 'description', 'string', p);
    if (problem) return problem;
  }
  // Stored as written (other keys included), so bounded like metadata.
  const deep = tooDeep(annotations, REPORT_LIMITS.valueDepth, path);
  return deep ? nestedTooDeep(deep, 'levels', REPORT_LIMITS.valueDepth) : null;
}

function validateOutput(chunks: unknown, path: FieldPath): Problem {
  if (chunks === undefined) return null;
  if (!Array.isArray(chunks)) return mustBe(path, 'an array', chunks);
  for (let i = 0; i < chunks.length; i++) {
    const chunk: unknown = chunks[i];
    if (typeof chunk === 'string') continue;
    const p = at(path, i);
    if (!isObject(chunk)) return mustBe(p, 'a string or an object', chunk);
    const problem = optional(chunk, 'text', 'string', p) ?? optional(chunk, 'buffer', 'string', p);
    if (problem) return problem;
  }
  return null;
}

function validateAttachments(attachments: unknown, path: FieldPath): Problem {
  if (attachments === undefined) return null;
  if (!Array.isArray(attachments)) return mustBe(path, 'an array', attachments);
  for (let i = 0; i < attachments.length; i++) {
    const a: unknown = attachments[i];
    const p = at(path, i);
    if (!isObject(a)) return mustBe(p, 'an object', a);
    for (const field of ['name', 'contentType', 'path', 'body', 'sha256'] as const) {
      const problem = optional(a, field, 'string', p);
      if (problem) return problem;
    }
  }
  return null;
}

function validateSteps(steps: unknown, path: FieldPath): Problem {
  if (steps === undefined) return null;
  if (!Array.isArray(steps)) return mustBe(path, 'an array', steps);
  const stack: Array<{ steps: unknown[]; path: FieldPath; depth: number }> = [{ steps, path, depth: 1 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    for (let i = 0; i < item.steps.length; i++) {
      const step: unknown = item.steps[i];
      const p = at(item.path, i);
      if (item.depth > REPORT_LIMITS.stepDepth) return nestedTooDeep(p, 'steps', REPORT_LIMITS.stepDepth);
      if (!isObject(step)) return mustBe(p, 'an object', step);
      const problem = optional(step, 'title', 'string', p) ?? optional(step, 'duration', 'number', p);
      if (problem) return problem;
      if (step.error !== undefined) {
        const error = validateError(step.error, at(p, 'error'));
        if (error) return error;
      }
      if (step.steps !== undefined) {
        if (!Array.isArray(step.steps)) return mustBe(at(p, 'steps'), 'an array', step.steps);
        stack.push({ steps: step.steps, path: at(p, 'steps'), depth: item.depth + 1 });
      }
    }
  }
  return null;
}

/** 'integer' where the value is stored in an INTEGER column (positions, shards). */
function optional(owner: Obj, field: string, type: 'string' | 'number' | 'integer', path: FieldPath): Problem {
  const value = owner[field];
  if (value === undefined) return null;
  if (type === 'string' ? typeof value === 'string' : type === 'integer' ? Number.isSafeInteger(value) : isNumber(value)) return null;
  return mustBe(at(path, field), type === 'integer' ? 'a whole number' : `a ${type}`, value);
}

function mustBe(path: FieldPath, what: string, value: unknown): ReportProblem {
  return shape(`"${pathText(path)}" must be ${what}, found ${kind(value)}`);
}

function missing(path: FieldPath): ReportProblem {
  return shape(`the field "${pathText(path)}" is missing`);
}

function nestedTooDeep(path: FieldPath, what: 'suites' | 'steps' | 'levels', limit: number): ReportProblem {
  const noun = what === 'levels' ? 'values' : what;
  return { text: `"${pathText(path)}" nests ${noun} deeper than the limit of ${limit} levels`, limit: true };
}

function shape(text: string): ReportProblem {
  return { text, limit: false };
}

function isNumber(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value);
}

function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
