/** Every call of docs/api.md, typed with the contract the server also compiles against. */
import type { AdminSettings, AuditPage, AuditQuery } from '../../../core/api/audit.js';
import type { AddWebhookRequest, AddWebhookResponse, DeliveryListResponse, WebhookListResponse, WebhookTestResponse } from '../../../core/api/webhooks.js';
import type { AddQuarantineRequest, QuarantineListResponse, QuarantineView } from '../../../core/api/quarantine.js';
import type { AiAnalysisRequest, AiAnalysisResult } from '../../../core/api/ai.js';
import type { DailyStat, OwnersResponse, BranchesResponse, DashboardResponse, ErrorPatternsPage, FlakySortKey, FlakyTestsPage, Paged, SlowTestsPage, TestResultDetail, TrendDay } from '../../../core/api/analytics.js';
import { type AuthMethodsResponse, type LoginResponse, type MeResponse, SESSION_HEADER, type SsoSessionResponse } from '../../../core/api/auth.js';
import type { BulkReviewRequest, BulkReviewResponse, ClearAllAnswer, PendingUpload, PendingUploadsResponse, RecentUpload, ReviewRequest, ReviewResponse, ReviewStatus, RunResultsQuery, SuccessAnswer, TestResultRow, UploadDetailResponse, UploadRequest, UploadResponse } from '../../../core/api/uploads.js';
import { request } from './client.js';

const enc = encodeURIComponent;

export const login = (username: string, password: string) =>
  request<LoginResponse>('/api/auth/login', { method: 'POST', body: { username, password }, anonymous: true });
export const authMethods = () => request<AuthMethodsResponse>('/api/auth/methods', { anonymous: true });
/** Exchanges a single sign-on the provider finished (the server knows it by an HttpOnly cookie) for a session. */
export const ssoSession = () => request<SsoSessionResponse>('/api/auth/oidc/session', { method: 'POST', body: {}, anonymous: true });
export const me = () => request<MeResponse>('/api/auth/me');
export const logout = (sessionToken: string) =>
  request<SuccessAnswer>('/api/auth/logout', { method: 'POST', body: {}, headers: { [SESSION_HEADER]: sessionToken } });

/** docs/api.md#uploads-and-review: the list comes under `uploads` or as a bare array. */
export async function pendingUploads(): Promise<PendingUpload[]> {
  const answer = await request<PendingUploadsResponse | PendingUpload[]>('/api/uploads/pending');
  return Array.isArray(answer) ? answer : (answer?.uploads ?? []);
}

/** The count use of the same call: 0 when the field is missing. */
export async function pendingCount(): Promise<number> {
  const answer = await request<Partial<PendingUploadsResponse> | PendingUpload[]>('/api/uploads/pending');
  if (Array.isArray(answer)) return answer.length;
  return typeof answer?.count === 'number' ? answer.count : 0;
}

export const reviewUpload = (id: number, action: ReviewRequest['action'], notes = '') =>
  request<ReviewResponse>(`/api/uploads/${id}/review`, { method: 'PATCH', body: { action, notes } satisfies ReviewRequest });
export const bulkReview = (uploads: BulkReviewRequest['uploads']) =>
  request<BulkReviewResponse>('/api/uploads/bulk-review', { method: 'POST', body: { uploads } satisfies BulkReviewRequest });

export const dashboard = (days = 30, branch: string | null = null, owner: string | null = null) => request<DashboardResponse>(`/api/dashboard${query({ days, branch, owner })}`);
/** Every owner a test has (the owner filter's choices). */
export const owners = () => request<OwnersResponse>('/api/owners');
/** The branches runs were stored on, most recently run first (the branch filter's choices). */
export const branches = (limit = 100) => request<BranchesResponse>(`/api/branches${query({ limit })}`);
/** Query string of the given parameters, leaving out empty ones. */
function query(params: Record<string, string | number | boolean | null | undefined>): string {
  const pairs = Object.entries(params).filter(([, v]) => v !== null && v !== undefined && v !== '');
  return pairs.length === 0 ? '' : `?${new URLSearchParams(pairs.map(([k, v]) => [k, String(v)])).toString()}`;
}

export interface FlakyTestsQuery {
  /** The time window (0 = all time), as the dashboard's. */
  days?: number;
  page: number;
  pageSize: number;
  search?: string;
  browser?: string | null;
  /** A severity (severe, moderate, minor) or a trend direction, as the severity query of docs/screens.md#flaky-test-analysis. */
  severity?: string | null;
  sort?: FlakySortKey;
  order?: 'asc' | 'desc';
  /** One branch's flaky tests; absent: every branch. */
  branch?: string | null;
  /** One owner's flaky tests, or 'unowned'; absent: everyone's. */
  owner?: string | null;
}
/** One page of flaky groups, searched, filtered and sorted by the server. */
export const flakyTestsPage = (q: FlakyTestsQuery) => request<FlakyTestsPage>(`/api/flaky-tests${query({ ...q })}`);

/** A test's history on one browser: the file separates tests that share a title; a branch keeps that branch's runs alone. */
export const testDetails = (testTitle: string, browser: string, file: string, page = 1, pageSize = 50, branch: string | null = null) =>
  request<Paged<TestResultDetail>>(`/api/test-details/${enc(testTitle)}/${enc(browser)}${query({ file, page, pageSize, branch })}`);
export const dailyStats = (testFile: string, testTitle: string, browser: string, branch: string | null = null) =>
  request<DailyStat[]>(`/api/flaky-tests/${enc(testFile)}/${enc(testTitle)}/${enc(browser)}/daily-stats${query({ branch })}`);
export const aiAnalysis = (body: AiAnalysisRequest) => request<AiAnalysisResult>('/api/ai-analysis', { method: 'POST', body });
export const slowTestsPage = (page: number, pageSize: number) => request<SlowTestsPage>(`/api/slow-tests${query({ page, pageSize })}`);
export const trends = () => request<TrendDay[]>('/api/trends');
export const errorPatternsPage = (page: number, pageSize: number) => request<ErrorPatternsPage>(`/api/error-patterns${query({ page, pageSize })}`);

export const recentUploadsPage = (page: number, pageSize: number, status?: ReviewStatus) =>
  request<Paged<RecentUpload>>(`/api/recent-uploads${query({ status, page, pageSize })}`);
export const uploadReport = (body: UploadRequest) => request<UploadResponse>('/api/upload', { method: 'POST', body });
export const clearAll = () => request<ClearAllAnswer>('/api/clear-all', { method: 'DELETE' });
export const deleteRun = (id: number) => request<SuccessAnswer>(`/api/test-run/${id}`, { method: 'DELETE' });
export const uploadDetail = (id: number | string) => request<UploadDetailResponse>(`/api/uploads/${enc(String(id))}`);
/** One page of a run's Test Results table, searched, filtered and sorted by the server. */
export const uploadResults = (id: number, q: RunResultsQuery) => request<Paged<TestResultRow>>(`/api/uploads/${id}/results${query({ ...q })}`);

export const quarantineList = () => request<QuarantineListResponse>('/api/quarantine');
export const addQuarantine = (body: AddQuarantineRequest) => request<{ entry: QuarantineView }>('/api/quarantine', { method: 'POST', body });
export const removeQuarantine = (id: number) => request<SuccessAnswer>(`/api/quarantine/${id}`, { method: 'DELETE' });

/** docs/audit.md: the audit trail, admins only, newest first. */
export const auditPage = (q: AuditQuery) => request<AuditPage>(`/api/audit${query({ ...q })}`);
export const adminSettings = () => request<AdminSettings>('/api/settings');
export const saveAdminSettings = (settings: AdminSettings) => request<AdminSettings>('/api/settings', { method: 'PUT', body: settings });
export const webhookList = () => request<WebhookListResponse>('/api/webhooks');
export const addWebhook = (body: AddWebhookRequest) => request<AddWebhookResponse>('/api/webhooks', { method: 'POST', body });
export const removeWebhook = (id: number) => request<SuccessAnswer>(`/api/webhooks/${id}`, { method: 'DELETE' });
export const testWebhook = (id: number) => request<WebhookTestResponse>(`/api/webhooks/${id}/test`, { method: 'POST', body: {} });
export const webhookDeliveries = (limit = 50) => request<DeliveryListResponse>(`/api/webhooks/deliveries${query({ limit })}`);
