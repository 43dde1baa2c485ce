import type { Store } from '../store/open.js';

/**
 * Analytics answers change only when runs are written, so they are kept until then. The
 * key carries the database's version: this connection's change count (imports, reviews and
 * deletes through the server) and SQLite's data_version (commits by other connections, such as
 * a `flakeboard import` into the same file while the server runs), plus the UTC day, since
 * windows end today. Bounded: the oldest entry goes first.
 */
export class AnalyticsCache {
  private readonly entries = new Map<string, unknown>();
  private version = '';
  private readonly changes;

  constructor(
    private readonly store: Store,
    private readonly maxEntries = 500,
  ) {
    // Asked on every analytics call: prepared once.
    this.changes = store.sqlite.prepare('SELECT total_changes() AS changes');
  }

  get<T>(key: string, today: number, compute: () => T): T {
    const version = this.currentVersion(today);
    if (version !== this.version) {
      this.entries.clear();
      this.version = version;
    }
    if (this.entries.has(key)) return this.entries.get(key) as T;
    const value = compute();
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, value);
    return value;
  }

  private currentVersion(today: number): string {
    const { changes } = this.changes.get() as { changes: number };
    const dataVersion = this.store.sqlite.pragma('data_version', { simple: true }) as number;
    return `${today}:${changes}:${dataVersion}`;
  }
}
