import { dialectFor } from '../store/engine/dialect.js';
import type { AnyStore } from '../store/engine/types.js';

/**
 * Analytics answers change only when runs are written, so they are kept until then. The
 * version is a signature of the runs table, read on every call: an import adds a run, a delete
 * or a clear removes runs, a review sets reviewed_at; it sees writes by this server and by other
 * processes alike (a `flakeboard import` into the same file while the server runs). Sessions and
 * other bookkeeping do not empty the cache. Quarantine entries added or lifted are part of it
 * (the CI gate reads them). The UTC day is part of it, since windows end today and quarantine
 * entries expire at the start of a UTC day.
 * Bounded by entries and by the characters of the JSON texts it holds (a server's memory must
 * not follow how many distinct pages people ask for): the oldest entry goes first, and an
 * answer larger than the whole budget is served but not kept. One caller's answers hold at most
 * a quarter of either bound: past it, that caller's own oldest answer goes, so a caller sending
 * hundreds of distinct queries cannot evict everyone else's answers.
 */
export class AnalyticsCache {
  private readonly entries = new Map<string, unknown>();
  /** Who asked first for each kept answer, and what each caller holds. */
  private readonly owners = new Map<string, string>();
  private readonly byOwner = new Map<string, { entries: number; chars: number }>();
  private readonly inFlight = new Map<string, Promise<string>>();
  private version = '';
  private readonly signature: () => Promise<string>;
  private held = 0;
  /** The statement that reads the data's signature (a version is `<UTC day>:<signature>`). */
  readonly signatureSql: string;

  constructor(
    store: AnyStore,
    private readonly maxEntries = 500,
    /** 16 M characters: at most 32 MB of strings in V8, and tens of thousands of bounded answers. */
    private readonly maxChars = 16 * 1024 * 1024,
  ) {
    // Asked on every analytics call; runs holds one row per report (thousands). Read from the
    // database each time, so a write by another process or another server sharing the
    // PostgreSQL database (an upload, an approval) is seen by the next call on this one.
    const t = dialectFor(store.dialect);
    // started_at too: ids are reused after a clear, and one new run would otherwise look like an old state.
    const text = (this.signatureSql = `SELECT coalesce(max(id), 0) || ':' || count(*) || ':' || ${t.total('reviewed_at')} || ':' || ${t.total(t.boolInt("status = 'rejected'"))} || ':' || ${t.total('started_at')}
         || ':' || (SELECT coalesce(max(id), 0) || '/' || ${t.total(t.boolInt('removed_at IS NOT NULL'))} FROM quarantine) AS signature FROM runs`);
    this.signature = sharedRead(store, text, async () => String(await store.sql.value<string>(text)));
  }

  /** The data's version now; answers computed from it are stored under it. */
  async versionFor(today: number): Promise<string> {
    return `${today}:${await this.signature()}`;
  }

  lookup(version: string, key: string): { hit: true; value: unknown } | { hit: false } {
    if (version !== this.version) {
      this.entries.clear();
      this.owners.clear();
      this.byOwner.clear();
      this.held = 0;
      this.version = version;
    }
    return this.entries.has(key) ? { hit: true, value: this.entries.get(key) } : { hit: false };
  }

  /** Keeps an answer unless the data changed while it was being computed. */
  keep(version: string, key: string, value: unknown, owner = ''): void {
    if (version !== this.version) return;
    const size = sizeOf(value);
    if (size > this.maxChars) return;
    this.drop(key);
    const mine = () => this.byOwner.get(owner) ?? { entries: 0, chars: 0 };
    // The owner's share first: its own oldest answers make room for its new one.
    if (size <= this.maxChars / 4) {
      while (mine().entries > 0 && (mine().entries >= this.maxEntries / 4 || mine().chars + size > this.maxChars / 4)) this.drop(this.oldestOf(owner)!);
    }
    while (this.entries.size > 0 && (this.entries.size >= this.maxEntries || this.held + size > this.maxChars)) this.drop(this.entries.keys().next().value!);
    this.entries.set(key, value);
    this.held += size;
    this.owners.set(key, owner);
    const share = mine();
    this.byOwner.set(owner, { entries: share.entries + 1, chars: share.chars + size });
  }

  private oldestOf(owner: string): string | undefined {
    for (const [key, who] of this.owners) if (who === owner) return key;
    return undefined;
  }

  /**
   * The JSON answer kept under `key` for today's data, else computed once however many callers
   * ask for it at the same time (they share the computation) and kept.
   */
  async answer(today: number, key: string, compute: (version: string) => Promise<string>, owner = ''): Promise<string> {
    const version = await this.versionFor(today);
    const cached = this.lookup(version, key);
    if (cached.hit) return cached.value as string;
    const flightKey = `${version}\n${key}`;
    let pending = this.inFlight.get(flightKey);
    if (!pending) {
      pending = compute(version)
        .then((value) => {
          this.keep(version, key, value, owner);
          return value;
        })
        .finally(() => this.inFlight.delete(flightKey));
      this.inFlight.set(flightKey, pending);
    }
    return pending;
  }

  /** Characters held, for tests and diagnostics. */
  get heldChars(): number {
    return this.held;
  }

  private drop(key: string): void {
    if (!this.entries.has(key)) return;
    const size = sizeOf(this.entries.get(key));
    this.held -= size;
    this.entries.delete(key);
    const owner = this.owners.get(key)!;
    this.owners.delete(key);
    const share = this.byOwner.get(owner)!;
    if (share.entries <= 1) this.byOwner.delete(owner);
    else this.byOwner.set(owner, { entries: share.entries - 1, chars: share.chars - size });
  }
}

/**
 * The data version, read once for every caller that asks before the statement is sent: under
 * 20 readers each request read it itself, one round trip each through the pool on PostgreSQL
 * (docs/benchmarks.md#outages). A caller never gets a version read before it asked, since a
 * write it has just seen (its own upload) must show: one asking while a read is on its way
 * waits for the next, which is sent when that one ends and serves everyone who asked meanwhile.
 * Shared by every cache on the store (the analytics answers and the polled answers).
 */
const sharedReads = new WeakMap<object, Map<string, () => Promise<string>>>();
export function sharedRead(store: object, text: string, read: () => Promise<string>): () => Promise<string> {
  let reads = sharedReads.get(store);
  if (!reads) sharedReads.set(store, (reads = new Map()));
  let known = reads.get(text);
  if (!known) {
    let sent: Promise<string> | null = null;
    let next: Promise<string> | null = null;
    const send = (): Promise<string> => {
      const reading = read().finally(() => {
        if (sent === reading) sent = null;
      });
      sent = reading;
      return reading;
    };
    known = () => {
      if (next) return next;
      if (!sent) return send();
      const after = sent.then(
        () => undefined,
        () => undefined,
      );
      next = after.then(() => {
        next = null;
        return send();
      });
      return next;
    };
    reads.set(text, known);
  }
  return known;
}

// Answers are JSON text; anything else (tests) counts as one.
const sizeOf = (value: unknown): number => (typeof value === 'string' ? value.length : 1);
