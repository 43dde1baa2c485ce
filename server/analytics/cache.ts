import type { Store } from '../store/open.js';

/**
 * Analytics answers change only when runs are written, so they are kept until then. The
 * version is a signature of the runs table, read on every call: an import adds a run, a delete
 * or a clear removes runs, a review sets reviewed_at; it sees writes by this server and by other
 * processes alike (a `flakeboard import` into the same file while the server runs). Sessions and
 * other bookkeeping do not empty the cache. Quarantine entries added or lifted are part of it
 * (the CI gate reads them). The UTC day is part of it, since windows end today and quarantine
 * entries expire at the start of a UTC day.
 * Bounded: the oldest entry goes first.
 */
export class AnalyticsCache {
  private readonly entries = new Map<string, unknown>();
  private version = '';
  private readonly signature;

  constructor(
    store: Store,
    private readonly maxEntries = 500,
  ) {
    // Asked on every analytics call: prepared once; runs holds one row per report (thousands).
    this.signature = store.sqlite.prepare(
      `SELECT coalesce(max(id), 0) || ':' || count(*) || ':' || total(reviewed_at) || ':' || total(status = 'rejected')
         || ':' || (SELECT coalesce(max(id), 0) || '/' || total(removed_at IS NOT NULL) FROM quarantine) AS signature FROM runs`,
    );
  }

  /** The data's version now; answers computed from it are stored under it. */
  versionFor(today: number): string {
    const { signature } = this.signature.get() as { signature: string };
    return `${today}:${signature}`;
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
