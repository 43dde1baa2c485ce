/** Every call of SPEC.md section 7, typed with the contract the server also compiles against. */
import type { AiAnalysisRequest, AiAnalysisResult } from '../../../core/api/ai.js';
import type {
  DailyStat,
  DashboardResponse,
  ErrorPattern,
  FlakyTestGroup,
  SlowTest,
  TestResultDetail,
  TrendDay,
  TrendRecord,
} from '../../../core/api/analytics.js';
import type { LoginResponse, MeResponse } from '../../../core/api/auth.js';
import { SESSION_HEADER } from '../../../core/api/auth.js';
import type {
  BulkReviewRequest,
  PendingUpload,
  PendingUploadsResponse,
  RecentUpload,
  ReviewRequest,
  ReviewStatus,
  UploadDetailResponse,
  UploadRequest,
  UploadResponse,
} from '../../../core/api/uploads.js';
import { request } from './client.js';

const enc = encodeURIComponent;

export const login = (username: string, password: string) =>
  request<LoginResponse>('/api/auth/login', { method: 'POST', body: { username, password } });
export const me = () => request<MeResponse>('/api/auth/me');
export const logout = (sessionToken: string) =>
  request<unknown>('/api/auth/logout', { method: 'POST', body: {}, headers: { [SESSION_HEADER]: sessionToken } });

/** SPEC.md section 7: the list comes under `uploads` or as a bare array. */
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
  request<unknown>(`/api/uploads/${id}/review`, { method: 'PATCH', body: { action, notes } satisfies ReviewRequest });
export const bulkReview = (uploads: BulkReviewRequest['uploads']) =>
  request<unknown>('/api/uploads/bulk-review', { method: 'POST', body: { uploads } satisfies BulkReviewRequest });

export const dashboard = (days = 30) => request<DashboardResponse>(`/api/dashboard?days=${days}`);
export const flakyTrendRecords = () => request<TrendRecord[]>('/api/flaky-trends');
export const flakyTests = () => request<FlakyTestGroup[]>('/api/flaky-tests');
export const testDetails = (testTitle: string, browser: string) =>
  request<TestResultDetail[]>(`/api/test-details/${enc(testTitle)}/${enc(browser)}`);
export const dailyStats = (testFile: string, testTitle: string, browser: string) =>
  request<DailyStat[]>(`/api/flaky-tests/${enc(testFile)}/${enc(testTitle)}/${enc(browser)}/daily-stats`);
export const aiAnalysis = (body: AiAnalysisRequest) => request<AiAnalysisResult>('/api/ai-analysis', { method: 'POST', body });
export const slowTests = () => request<SlowTest[]>('/api/slow-tests');
export const trends = () => request<TrendDay[]>('/api/trends');
export const errorPatterns = () => request<ErrorPattern[]>('/api/error-patterns');

export const recentUploads = (status?: ReviewStatus) =>
  request<RecentUpload[]>(status ? `/api/recent-uploads?status=${status}` : '/api/recent-uploads');
export const uploadReport = (body: UploadRequest) => request<UploadResponse>('/api/upload', { method: 'POST', body });
export const clearAll = () => request<unknown>('/api/clear-all', { method: 'DELETE' });
export const deleteRun = (id: number) => request<unknown>(`/api/test-run/${id}`, { method: 'DELETE' });
export const uploadDetail = (id: number | string) => request<UploadDetailResponse>(`/api/uploads/${enc(String(id))}`);
