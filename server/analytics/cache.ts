import type { Store } from '../store/open.js';

/**
 * Analytics answers change only when runs are written, so they are kept until then. The
 * version carries this connection's change count (imports, reviews and deletes through the
 * server) and SQLite's data_version (commits by other connections, such as a
 * `flakeboard import` into the same file while the server runs), plus the UTC day, since
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

  /** The data's version now; answers computed from it are stored under it. */
  versionFor(today: number): string {
    const { changes } = this.changes.get() as { changes: number };
    const dataVersion = this.store.sqlite.pragma('data_version', { simple: true }) as number;
    return `${today}:${changes}:${dataVersion}`;
  }

  lookup(version: string, key: string): { hit: true; value: unknown } | { hit: false } {
    if (version !== this.version) {
      this.entries.clear();
      this.version = version;
    }
    return this.entries.has(key) ? { hit: true, value: this.entries.get(key) } : { hit: false };
  }

  /** Keeps an answer unless the data changed while it was being computed. */
  keep(version: string, key: string, value: unknown): void {
    if (version !== this.version) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, value);
  }
}
