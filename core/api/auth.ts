/** The sign-in calls of docs/api.md#sign-in, shared by the server and the UI. */

export type Role = 'admin' | 'reviewer' | 'member';
export const ROLES: readonly Role[] = ['admin', 'reviewer', 'member'];

export interface User {
  id: number;
  username: string;
  role: Role;
}

export interface LoginRequest {
  username: string;
  password: string;
}

export interface LoginResponse {
  token: string;
  sessionToken: string;
  user: User;
}

/** 401 for wrong credentials, 423 once locked; the same shape for unknown usernames. */
export interface LoginFailure {
  error: string;
  attemptsRemaining: number;
}

export interface MeResponse {
  user: User;
}

/** Every 4xx and 5xx answer of the API. */
export interface ApiError {
  error: string;
}

export const SESSION_HEADER = 'x-session-token';
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
