import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface RunNameParts {
  /** The project under test (the reporter's `project`, else the package name or folder of its config). */
  project: string | null;
  branch: string | null;
  buildId: string | null;
  shard: { current: number; total: number } | null;
}

/**
 * What a run is called on the review list and recent uploads: what it is, so two runs can be
 * told apart ('shop-web · feature/login · build 4242 · shard 1/2'), never a temporary file's name.
 */
export function runName({ project, branch, buildId, shard }: RunNameParts): string {
  const parts = [project, branch, buildId ? `build ${buildId}` : null, shard ? `shard ${shard.current}/${shard.total}` : null];
  const name = parts.filter((part): part is string => typeof part === 'string' && part.trim() !== '').map((part) => part.trim()).join(' · ');
  return name === '' ? 'Playwright run' : name.slice(0, 255);
}

/** The name of the project the tests belong to: the nearest package.json's name from `dir` up, else the folder's name. */
export function projectNameAt(dir: string): string | null {
  for (let at = dir; ; at = dirname(at)) {
    const name = packageName(join(at, 'package.json'));
    if (name) return name;
    if (dirname(at) === at) break;
  }
  return basename(dir) || null;
}

function packageName(file: string): string | null {
  if (!existsSync(file)) return null;
  try {
    const { name } = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown };
    return typeof name === 'string' && name.trim() !== '' ? name.trim() : null;
  } catch {
    // A broken package.json names nothing; the folder's name will do.
    return null;
  }
}
