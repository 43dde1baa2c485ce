/** GET/POST/DELETE /api/quarantine: entries that keep a known flaky test from blocking the CI gate. */
import { quarantineLastDay } from '../gate/expiry.js';
import type { z } from 'zod';
import type * as s from './schemas/quarantine.js';

/** An entry as the list shows it: the gate's entry, whether it was lifted, and whether it expired. */
export type QuarantineView = z.infer<typeof s.quarantineView>;

/** A stored entry as the API answers it, at `now`. */
export function quarantineView(q: Omit<QuarantineView, 'expired' | 'through'>, now: number): QuarantineView {
  return { ...q, expired: q.expiresAt !== null && q.expiresAt <= now, through: q.expiresAt === null ? null : quarantineLastDay(q.expiresAt) };
}

export type QuarantineListResponse = z.infer<typeof s.quarantineListResponse>;

export type AddQuarantineRequest = z.infer<typeof s.addQuarantineRequest>;
