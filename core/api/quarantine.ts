/** GET/POST/DELETE /api/quarantine: entries that keep a known flaky test from blocking the CI gate. */
import { quarantineLastDay } from '../gate/expiry.js';
import type { QuarantineEntry } from '../gate/types.js';

/** An entry as the list shows it: the gate's entry, whether it was lifted, and whether it expired. */
export interface QuarantineView extends QuarantineEntry {
  removedAt: number | null;
  removedBy: string | null;
  expired: boolean;
  /** The last UTC day it applies (YYYY-MM-DD), null for no end: the date every screen prints. */
  through: string | null;
}

/** A stored entry as the API answers it, at `now`. */
export function quarantineView(q: Omit<QuarantineView, 'expired' | 'through'>, now: number): QuarantineView {
  return { ...q, expired: q.expiresAt !== null && q.expiresAt <= now, through: q.expiresAt === null ? null : quarantineLastDay(q.expiresAt) };
}

export interface QuarantineListResponse {
  entries: QuarantineView[];
  count: number;
}

export interface AddQuarantineRequest {
  title: string;
  file?: string | null;
  project?: string | null;
  reason: string;
  owner?: string | null;
  /** 14d, 4w, YYYY-MM-DD or never; default 30d. */
  expires?: string;
}
