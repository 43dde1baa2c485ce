/** GET/POST/DELETE /api/quarantine: entries that keep a known flaky test from blocking the CI gate. */
import type { QuarantineEntry } from '../gate/types.js';

/** An entry as the list shows it: the gate's entry, whether it was lifted, and whether it expired. */
export interface QuarantineView extends QuarantineEntry {
  removedAt: number | null;
  removedBy: string | null;
  expired: boolean;
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
