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

/** GET /api/auth/methods: how this server lets people sign in. */
export interface AuthMethodsResponse {
  /** false: the password form is turned off (single sign-on only). */
  password: boolean;
  /** Single sign-on through an OpenID provider: the button's name and where it goes. */
  sso: { name: string; startUrl: string } | null;
}

/** POST /api/auth/oidc/session: the session of a finished single sign-on, and the page to open. */
export interface SsoSessionResponse extends LoginResponse {
  returnTo: string;
}

/** Why a single sign-on came back without a session: the login page's `?sso_error=`. */
export type SsoErrorCode = 'denied' | 'provider-error' | 'state' | 'expired' | 'invalid' | 'unreachable' | 'not-allowed' | 'no-account';

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
