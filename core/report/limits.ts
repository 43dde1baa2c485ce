/**
 * How deep a report may nest. Deeper input is refused with the path of the offending field:
 * every walk over a report (validation, normalising, hashing, JSON.stringify when storing)
 * stays far from the stack's end, and no real report comes near these (Playwright nests a
 * suite per describe block and a step per test.step()).
 */
export const REPORT_LIMITS = {
  /** Suites inside suites: a file, then describe blocks. */
  suiteDepth: 100,
  /** Steps inside steps. */
  stepDepth: 100,
  /** Free-form values stored as written: config.metadata, annotations, tags, attachments. */
  valueDepth: 32,
} as const;

/** A path into the report, built only when a problem is reported (most reports have none). */
export interface FieldPath {
  readonly up: FieldPath | null;
  readonly key: string | number;
}

export function at(up: FieldPath | null, key: string | number): FieldPath {
  return { up, key };
}

/** "suites[0].specs[2].title"; a very long path keeps its first and last segments. */
export function pathText(path: FieldPath | null): string {
  const parts: string[] = [];
  for (let p = path; p !== null; p = p.up) parts.push(typeof p.key === 'number' ? `[${p.key}]` : p.key);
  parts.reverse();
  const join = (segments: string[]) => segments.reduce((text, s) => (s.startsWith('[') || text === '' ? text + s : `${text}.${s}`), '');
  if (parts.length <= 24) return join(parts);
  return `${join(parts.slice(0, 10))}…${join(parts.slice(-6)).replace(/^\./, '')}`;
}

/**
 * The first value under `value` that sits more than `limit` levels below it, or null. An
 * explicit stack, not recursion: the value may be nested a million deep.
 */
export function tooDeep(value: unknown, limit: number, path: FieldPath | null): FieldPath | null {
  if (typeof value !== 'object' || value === null) return null;
  const stack: Array<{ value: object; depth: number; path: FieldPath | null }> = [{ value, depth: 1, path }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (item.depth > limit) return item.path;
    if (Array.isArray(item.value)) {
      for (let i = 0; i < item.value.length; i++) {
        const child: unknown = item.value[i];
        if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: item.depth + 1, path: at(item.path, i) });
      }
    } else {
      for (const key in item.value) {
        const child: unknown = (item.value as Record<string, unknown>)[key];
        if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: item.depth + 1, path: at(item.path, key) });
      }
    }
  }
  return null;
}
