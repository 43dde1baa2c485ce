import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, parse, resolve, sep } from 'node:path';
import type { PwConfig } from '../../core/report/playwright-types.js';

/**
 * The folders an import may read attachments from: the report's own folder (and everything
 * under it) and the output folders its projects name, as they are on this machine (symbolic
 * links resolved). A folder that is the file system's root, the home folder or one of its
 * parents is never one: a report cannot widen what is read to the whole disk by naming "/" as
 * its output, and a report saved in the home folder does not open the home folder (~/.ssh).
 */
export function attachmentRoots(reportPath: string, config: PwConfig | null): string[] {
  const roots = new Set<string>();
  const home = realDir(homedir());
  const add = (dir: string | null) => {
    if (dir && dir !== parse(dir).root && !(home !== null && isInside(home, dir, true))) roots.add(dir);
  };
  add(realDir(dirname(resolve(reportPath))));
  for (const project of config?.projects ?? []) {
    if (typeof project.outputDir === 'string' && isAbsolute(project.outputDir)) add(realDir(project.outputDir));
  }
  return [...roots];
}

function realDir(path: string): string | null {
  try {
    const real = realpathSync.native(path);
    return statSync(real).isDirectory() ? real : null;
  } catch {
    return null;
  }
}

/** `path` is `dir` or under it (both real paths). */
function isInside(path: string, dir: string, orEqual = false): boolean {
  if (path === dir) return orEqual;
  return path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/** Whether a folder beside the report exists, by its name (the first folder of a moved path); one per report. */
export type FolderCache = Map<string, boolean>;

export type FoundFile = { path: string; size: number } | { problem: 'missing' | 'outside' };

/**
 * The file an attachment's path names, on this machine, if it may be read: the path as written
 * (absolute, or relative to the report), or, when the report was moved with its output folder
 * (another machine's absolute path, a Windows path), the same last folders and file under the
 * report's folder: `/ci/work/test-results/a-b/trace.zip` is looked for as
 * `test-results/a-b/trace.zip`, then `a-b/trace.zip`, beside the report. A candidate counts
 * only if its real path (links followed) is a regular file inside one of `roots`.
 */
export function findAttachmentFile(written: string, reportPath: string, roots: readonly string[], folders: FolderCache = new Map()): FoundFile {
  const reportDir = reportDirOf(reportPath);
  let outside = false;
  const tryPath = (candidate: string): { path: string; size: number } | null => {
    // A report moved without its output names tens of thousands of files that are not there:
    // a stat that does not throw answers those without building an error each time.
    if (!statSync(candidate, { throwIfNoEntry: false })) return null;
    let real: string;
    try {
      real = realpathSync.native(candidate);
    } catch {
      return null;
    }
    if (!roots.some((root) => isInside(real, root))) {
      outside = true;
      return null;
    }
    try {
      const info = statSync(real);
      return info.isFile() ? { path: real, size: info.size } : null;
    } catch {
      return null;
    }
  };
  if (written.includes('\u0000')) return { problem: 'outside' };
  const direct = tryPath(isAbsolute(written) ? written : resolve(reportDir, written));
  if (direct) return direct;
  // Both separators: a report written on Windows names C:\...\test-results\...
  const segments = written.split(/[\\/]+/).filter((s) => s !== '' && s !== '.' && s !== '..' && !/^[A-Za-z]:$/.test(s));
  for (let k = Math.min(segments.length, 8); k >= 2; k--) {
    // Every attachment of a moved report shares its first folders (home, runner, work, …): asked
    // once each, so a report whose output stayed behind costs two lookups per attachment, not eight.
    // Keyed by the folder's name (the cache is one report's): no path is built for a folder known absent.
    const top = segments[segments.length - k]!;
    let present = folders.get(top);
    if (present === undefined) folders.set(top, (present = statSync(join(reportDir, top), { throwIfNoEntry: false })?.isDirectory() ?? false));
    if (!present) continue;
    const moved = tryPath(join(reportDir, ...segments.slice(segments.length - k)));
    if (moved) return moved;
  }
  return { problem: outside ? 'outside' : 'missing' };
}

// One report's attachments are looked for one after another: its folder is resolved once, not
// once per attachment (resolving a path reads the working folder and normalises the string).
let lastReport: { path: string; cwd: string; dir: string } | null = null;

function reportDirOf(reportPath: string): string {
  const cwd = process.cwd();
  if (lastReport?.path !== reportPath || lastReport.cwd !== cwd) lastReport = { path: reportPath, cwd, dir: dirname(resolve(reportPath)) };
  return lastReport.dir;
}
