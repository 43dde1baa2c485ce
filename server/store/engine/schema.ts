import type { Generated } from 'kysely';
import type { AttachmentKind, AttachmentState } from '../../../core/api/attachments.js';

/** Row types of the SQLite schema (migrations.ts), for Kysely's typed queries. */
export interface DatabaseSchema {
  users: UsersTable;
  sessions: SessionsTable;
  api_tokens: ApiTokensTable;
  runs: RunsTable;
  tests: TestsTable;
  results: ResultsTable;
  attempts: AttemptsTable;
  settings: SettingsTable;
  daily_test_stats: DailyTestStatsTable;
  test_totals: TestTotalsTable;
  daily_error_stats: DailyErrorStatsTable;
  error_samples: ErrorSamplesTable;
  browser_projects: BrowserProjectsTable;
  quarantine: QuarantineTable;
  login_failures: LoginFailuresTable;
  rate_limits: RateLimitsTable;
  unknown_login_failures: UnknownLoginFailuresTable;
  oidc_flows: OidcFlowsTable;
  audit_log: AuditLogTable;
  test_owners: TestOwnersTable;
  evidence_blobs: EvidenceBlobsTable;
  attachments: AttachmentsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  kept_answers: KeptAnswersTable;
}

/** A stored evidence blob (migration 13; server/store/evidence/). */
export interface EvidenceBlobsTable {
  sha256: string;
  size: number;
  content_type: string;
  stored_at: number;
  failing: number;
}

/** An attempt's attachment and what became of its blob (core/api/evidence.ts). */
export interface AttachmentsTable {
  result_id: number;
  retry: number;
  ordinal: number;
  name: string;
  content_type: string;
  kind: AttachmentKind;
  sha256: string | null;
  size: number | null;
  state: AttachmentState;
}

/** Append-only record of changes (migration 15, accounts/audit.ts). */
export interface AuditLogTable {
  id: Generated<number>;
  at: number;
  actor_id: number | null;
  actor_name: string | null;
  actor_kind: 'user' | 'token' | 'cli' | 'system';
  source: string;
  action: string;
  target_type: string | null;
  target_id: string | null;
  target_label: string | null;
  detail_json: string | null;
}

/** A single sign-on in progress (accounts/oidc-flows.ts). */
export interface OidcFlowsTable {
  flow_hash: string;
  stage: 'pending' | 'exchanging' | 'done';
  state: string;
  nonce: string;
  code_verifier: string;
  redirect_uri: string;
  return_to: string;
  user_id: number | null;
  created_at: number;
  expires_at: number;
}

export interface TestOwnersTable {
  test_id: number;
  owner: string;
  source: 'annotation' | 'tag' | 'codeowners';
}

/** Alert receivers (migration 14, store/webhooks/). */
export interface WebhooksTable {
  id: Generated<number>;
  name: string;
  kind: 'slack' | 'teams' | 'generic';
  url: string;
  secret: string | null;
  /** Space-separated event names. */
  events: string;
  base_branch: string;
  /** Percent: a base-branch run below it is an alert. */
  pass_rate_threshold: number;
  /** A quarantine entry this many days from its expiry is an alert. */
  expiry_days: number;
  created_by: string | null;
  created_at: number;
}

/** The outbox: one event for one hook, until it is sent or given up. */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  webhook_id: number;
  event_key: string;
  event: string;
  payload: string;
  state: 'pending' | 'sent' | 'failed' | 'skipped';
  attempts: Generated<number>;
  next_attempt_at: number;
  last_status: number | null;
  last_error: string | null;
  claimed_by: string | null;
  claimed_until: number | null;
  created_at: number;
  sent_at: number | null;
}

export interface UnknownLoginFailuresTable {
  name_hash: string;
  address: string;
  failures: number;
  last_failed_at: number;
  locked_until: number | null;
}

export interface RateLimitsTable {
  limit_key: string;
  window_start: number;
  window_end: number;
  hits: number;
}

export interface LoginFailuresTable {
  user_id: number;
  address: string;
  failures: number;
  last_failed_at: number;
  locked_until: number | null;
}

export interface QuarantineTable {
  id: Generated<number>;
  title: string;
  file: string | null;
  project: string | null;
  reason: string;
  owner: string | null;
  created_by: number | null;
  created_at: number;
  expires_at: number | null;
  removed_by: number | null;
  removed_at: number | null;
}

export interface DailyErrorStatsTable {
  test_id: number;
  browser: string;
  day: number;
  fingerprint: string;
  occurrences: number;
}

export interface ErrorSamplesTable {
  fingerprint: string;
  category: string;
  summary: string;
  message: string;
}

export interface BrowserProjectsTable {
  browser: string;
  project_name: string;
}

/** An analytics answer kept across restarts (migration 22, write/kept-answers.ts). */
export interface KeptAnswersTable {
  key: string;
  name: string;
  args: string;
  version: string | null;
  json: string | null;
  asked_at: number;
  asks: number;
}

export interface SettingsTable {
  key: string;
  value: string;
}

import type { Role } from '../../../core/api/auth.js';
import type { ReviewStatus } from '../../../core/api/uploads.js';

export type { Role, ReviewStatus };

export interface UsersTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  role: Role;
  failed_attempts: Generated<number>;
  locked: Generated<number>;
  created_at: number;
  updated_at: number;
  /** The identity provider's (issuer, subject) of an account made by single sign-on; null for a local one. */
  oidc_issuer: string | null;
  oidc_subject: string | null;
}

export interface SessionsTable {
  id: Generated<number>;
  token_hash: string;
  session_hash: string;
  user_id: number;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
}

export interface ApiTokensTable {
  id: Generated<number>;
  name: string;
  token_hash: string;
  user_id: number;
  created_at: number;
  last_used_at: number | null;
  expires_at: number | null;
  /** Space-separated TokenScope names (accounts/api-tokens.ts). */
  scopes: Generated<string>;
}

export interface RunsTable {
  id: Generated<number>;
  status: Generated<ReviewStatus>;
  is_duplicate: Generated<number>;
  duplicate_of: number | null;
  content_hash: string;
  file_name: string;
  file_size: number | null;
  project: string | null;
  browser: string;
  git_branch: string | null;
  git_commit: string | null;
  metadata_json: string | null;
  playwright_version: string | null;
  shard_current: number | null;
  shard_total: number | null;
  started_at: number;
  duration_ms: number;
  uploaded_at: number;
  uploaded_by: number | null;
  uploaded_via: string | null;
  reviewed_by: number | null;
  reviewed_at: number | null;
  review_notes: string | null;
  total_tests: number;
  passed_tests: number;
  failed_tests: number;
  skipped_tests: number;
  flaky_tests: number;
  load_failed: Generated<number>;
  outage: Generated<number>;
  errors_json: string | null;
  build_id: string | null;
  build_url: string | null;
}

export interface DailyTestStatsTable {
  test_id: number;
  browser: string;
  day: number;
  runs: number;
  passed: number;
  failed: number;
  skipped: number;
  passed_on_retry: number;
  duration_sum: number;
  duration_max: number;
  timed_runs: number;
  scored_runs: number;
  scored_passed: number;
  scored_failed: number;
  attempts: number;
  changes: number;
  first_outcome: number | null;
  last_outcome: number | null;
  last_run_at: number;
}

/** Per test and browser over all history (migration 4, test-totals.ts). */
export interface TestTotalsTable {
  test_id: number;
  browser: string;
  runs: number;
  passed: number;
  failed: number;
  skipped: number;
  passed_on_retry: number;
  scored_passed: number;
  scored_failed: number;
  attempts: number;
  changes: number;
  duration_sum: number;
  duration_max: number;
  timed_runs: number;
  first_outcome: number | null;
  last_outcome: number | null;
  last_run_at: number;
  last_failed_at: number | null;
}

export interface TestsTable {
  id: Generated<number>;
  file: string;
  title_path: string;
  title: string;
}

export interface ResultsTable {
  id: Generated<number>;
  run_id: number;
  test_id: number;
  browser: string;
  project_name: string;
  repeat_index: number;
  line: number;
  col: number;
  started_at: number;
  status: 'passed' | 'failed' | 'timedOut' | 'skipped';
  final_status: string;
  outcome: string;
  expected_status: string;
  passed_on_retry: number;
  retries: number;
  duration_ms: number;
  error_message: string | null;
  error_category: string | null;
  error_fingerprint: string | null;
  error_summary: string | null;
  error_location: string | null;
  error_snippet: string | null;
  error_stack: string | null;
  tags_json: string | null;
  annotations_json: string | null;
}

export interface AttemptsTable {
  result_id: number;
  retry: number;
  status: string;
  duration_ms: number;
  started_at: number | null;
  error_message: string | null;
  other_errors_json: string | null;
  steps_json: string | null;
  stdout: string | null;
  stderr: string | null;
  attachments_json: string | null;
}
