/**
 * The sign-in calls of docs/api.md#sign-in, shared by the server and the UI: types inferred from
 * the Zod schemas of schemas/auth.ts (type-only imports: the UI bundles no Zod).
 */
import type { z } from 'zod';
import type * as s from './schemas/auth.js';

export type Role = z.infer<typeof s.role>;
export const ROLES: readonly Role[] = ['admin', 'reviewer', 'member'];

export type User = z.infer<typeof s.user>;

export type LoginRequest = z.infer<typeof s.loginRequest>;

export type LoginResponse = z.infer<typeof s.loginResponse>;

/** 401 for wrong credentials, 423 once locked; the same shape for unknown usernames. */
export type LoginFailure = z.infer<typeof s.loginFailure>;

/** GET /api/auth/methods: how this server lets people sign in. */
export type AuthMethodsResponse = z.infer<typeof s.authMethodsResponse>;

/** POST /api/auth/oidc/session: the session of a finished single sign-on, and the page to open. */
export interface SsoSessionResponse extends LoginResponse {
  returnTo: string;
}

/** Why a single sign-on came back without a session: the login page's `?sso_error=`. */
export type SsoErrorCode = 'denied' | 'provider-error' | 'state' | 'expired' | 'invalid' | 'unreachable' | 'not-allowed' | 'no-account';

export type MeResponse = z.infer<typeof s.meResponse>;

/** Every 4xx and 5xx answer of the API. */
export interface ApiError {
  error: string;
}

export const SESSION_HEADER = 'x-session-token';
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
