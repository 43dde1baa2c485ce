import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, posix, relative, resolve } from 'node:path';
import { CODEOWNERS_LOCATIONS, CODEOWNERS_MAX_BYTES, ownersOfFile, parseCodeowners, type Codeowners } from '../core/owners/codeowners.js';
import type { FileOwners } from '../core/owners/test-owners.js';

/** A CODEOWNERS file read from a checkout, and the checkout's root its patterns are relative to. */
export interface RepoOwners {
  root: string;
  file: string;
  codeowners: Codeowners;
}

/** The checkout's root: `git rev-parse --show-toplevel` in `dir`; null outside a repository. */
export function gitTopLevel(dir: string): Promise<string | null> {
  return new Promise((done) => {
    const child = execFile('git', ['rev-parse', '--show-toplevel'], { cwd: dir, timeout: 5000, windowsHide: true }, (error, stdout) => {
      done(error === null && stdout.trim() !== '' ? stdout.trim() : null);
    });
    child.stdin?.end();
  });
}

/** Reads and parses a CODEOWNERS file; an unreadable or oversized one is an error naming it. */
export function readCodeowners(file: string): Codeowners {
  let size: number;
  try {
    size = statSync(file).size;
  } catch (error) {
    throw new Error(`cannot read the CODEOWNERS file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
  }
  if (size > CODEOWNERS_MAX_BYTES) throw new Error(`the CODEOWNERS file ${file} is ${size} bytes; GitHub reads at most ${CODEOWNERS_MAX_BYTES} (3 MB)`);
  return parseCodeowners(readFileSync(file, 'utf8'));
}

/**
 * The CODEOWNERS to attribute tests with: `--codeowners FILE` (its repository root from
 * `--repo-root`, else git, else the current folder), or the first of GitHub's locations in the
 * checkout (`--repo-root`, else git's root of `dir`). Null when there is none.
 */
export async function findRepoOwners(options: { codeowners?: string | undefined; repoRoot?: string | undefined }, dir: string): Promise<RepoOwners | null> {
  const root = options.repoRoot !== undefined ? resolve(options.repoRoot) : ((await gitTopLevel(dir)) ?? (await gitTopLevel(process.cwd())) ?? process.cwd());
  if (options.codeowners !== undefined) return { root, file: resolve(options.codeowners), codeowners: readCodeowners(resolve(options.codeowners)) };
  for (const location of CODEOWNERS_LOCATIONS) {
    const file = join(root, location);
    if (isFile(file)) return { root, file, codeowners: readCodeowners(file) };
  }
  return null;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Where the report's rootDir is inside the checkout, '/'-separated ('' at its root). A report
 * made on this machine names a folder inside `root`; one made elsewhere (CI's
 * /home/runner/work/app/app/e2e) is matched by the longest end of its path that is a folder of
 * the checkout (e2e), else the root.
 */
export function rootDirInRepo(root: string, rootDir: string | null): string {
  if (rootDir === null || rootDir === '') return '';
  const unix = rootDir.replace(/\\/g, '/');
  if (isAbsolute(rootDir)) {
    const inside = relative(root, rootDir).replace(/\\/g, '/');
    if (inside === '') return '';
    if (!inside.startsWith('..') && !isAbsolute(inside)) return inside;
  }
  const segments = unix.split('/').filter((s) => s !== '' && !/^[A-Za-z]:$/.test(s));
  for (let i = 0; i < segments.length; i++) {
    const tail = segments.slice(i);
    if (tail.includes('..')) continue;
    if (isDirectory(join(root, ...tail))) return tail.join('/');
  }
  return '';
}

/** The path of a report's test file in the repository, or null when it falls outside it. */
export function repoPathOf(prefix: string, file: string): string | null {
  const path = posix.normalize(posix.join(prefix, file.replace(/\\/g, '/')));
  return path.startsWith('../') || path === '..' || path.startsWith('/') ? null : path;
}

/** ingest's ownersFor: a report's test files' CODEOWNERS owners, given its rootDir. */
export function ownersForReport(repo: RepoOwners | null): ((rootDir: string | null) => FileOwners | null) | undefined {
  if (repo === null) return undefined;
  return (rootDir) => {
    const prefix = rootDirInRepo(repo.root, rootDir);
    return (file) => {
      const path = repoPathOf(prefix, file);
      return path === null ? [] : ownersOfFile(repo.codeowners, path);
    };
  };
}
