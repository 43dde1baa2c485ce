/** What `prune`, `backup` and `doctor` share: the database must already exist, and sizes. */
import { existsSync } from 'node:fs';

/** These commands look after a database; they never create an empty one by mistake. */
export function requireDatabase(path: string): void {
  if (!existsSync(path)) throw new Error(`no database at ${path}: pass --db or set FLAKEBOARD_DB`);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** "1 user", "2 users". */
export function plural(n: number, word: string): string {
  return `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;
}

export function describeCounts(c: { runs: number; results: number; tests: number; users: number; pendingUploads: number }): string {
  return `${plural(c.runs, 'run')}, ${plural(c.results, 'result')}, ${plural(c.tests, 'test')}, ${plural(c.users, 'user')}, ${plural(c.pendingUploads, 'pending upload')}`;
}
