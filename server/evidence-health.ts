import type { EvidenceStore } from './store/evidence/evidence-store.js';

/** What `/api/health` says of the evidence store. */
export interface EvidenceState {
  ok: boolean;
  /** 'none' (keeps no evidence), 'folder' or 's3'; never the location, which may name a bucket. */
  kind: 'none' | 'folder' | 's3';
  /** Why it is not ok. */
  error?: string;
}

// A hash no blob has: asking for it reads nothing and proves the folder or bucket answers.
const PROBE_SHA = '0'.repeat(64);
const FRESH_MS = 5_000;
const DEADLINE_MS = 1_000;

/**
 * Whether the evidence store answers, for `/api/health`. A bucket that is down leaves runs
 * storable (their evidence is marked not stored) and every screen readable, so it makes the
 * server degraded, not unavailable: a balancer keeps sending it requests. Probed at most every
 * five seconds, with a second to answer, and never on the way of a health answer after the first:
 * an ask while a probe runs answers from the last result.
 */
export class EvidenceHealth {
  private last: { state: EvidenceState; at: number } | null = null;
  private probing: Promise<EvidenceState> | null = null;

  constructor(private readonly store: EvidenceStore) {}

  private get kind(): EvidenceState['kind'] {
    if (this.store.location === 'none') return 'none';
    return this.store.location.startsWith('s3://') ? 's3' : 'folder';
  }

  async state(now = Date.now()): Promise<EvidenceState> {
    if (this.kind === 'none') return { ok: true, kind: 'none' };
    if (this.last && now - this.last.at < FRESH_MS) return this.last.state;
    this.probing ??= this.probe().finally(() => (this.probing = null));
    return this.last ? this.last.state : this.probing;
  }

  private async probe(): Promise<EvidenceState> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, fail) => {
      timer = setTimeout(() => fail(new Error(`no answer within ${DEADLINE_MS / 1000} s`)), DEADLINE_MS);
    });
    let state: EvidenceState;
    try {
      await Promise.race([this.store.has(PROBE_SHA), deadline]);
      state = { ok: true, kind: this.kind };
    } catch (error) {
      state = { ok: false, kind: this.kind, error: (error as Error).message || (error as Error).name };
    } finally {
      clearTimeout(timer);
    }
    this.last = { state, at: Date.now() };
    return state;
  }
}
