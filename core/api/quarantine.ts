/** GET/POST/DELETE /api/quarantine: entries that keep a known flaky test from blocking the CI gate. */
export interface QuarantineView {
  id: number;
  title: string;
  file: string | null;
  project: string | null;
  reason: string;
  owner: string | null;
  createdBy: string | null;
  createdAt: number;
  /** Epoch ms at which it stops applying (the start of a UTC day); null: no end. */
  expiresAt: number | null;
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
