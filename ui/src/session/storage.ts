import type { User } from '../../../core/api/auth.js';

/** docs/screens.md#session-theme-and-events: the browser storage keys of a session. */
export const AUTH_TOKEN_KEY = 'auth_token';
export const SESSION_TOKEN_KEY = 'session_token';
export const USER_DATA_KEY = 'user_data';

export interface StoredSession {
  token: string;
  sessionToken: string;
  user: User;
}

/** The stored session when all three keys exist and user_data parses; otherwise null. */
export function readSession(): StoredSession | null {
  const token = localStorage.getItem(AUTH_TOKEN_KEY);
  const sessionToken = localStorage.getItem(SESSION_TOKEN_KEY);
  const userData = localStorage.getItem(USER_DATA_KEY);
  if (!token || !sessionToken || !userData) return null;
  try {
    const user = JSON.parse(userData) as User;
    if (!user || typeof user.username !== 'string') return null;
    return { token, sessionToken, user };
  } catch {
    return null;
  }
}

export function writeSession(session: StoredSession): void {
  localStorage.setItem(AUTH_TOKEN_KEY, session.token);
  localStorage.setItem(SESSION_TOKEN_KEY, session.sessionToken);
  localStorage.setItem(USER_DATA_KEY, JSON.stringify(session.user));
}

export function writeUser(user: User): void {
  localStorage.setItem(USER_DATA_KEY, JSON.stringify(user));
}

const listeners = new Set<() => void>();

/** Clears every key and tells the session provider, which then shows the signed-out state. */
export function clearSession(): void {
  localStorage.removeItem(AUTH_TOKEN_KEY);
  localStorage.removeItem(SESSION_TOKEN_KEY);
  localStorage.removeItem(USER_DATA_KEY);
  for (const listener of listeners) listener();
}

export function onSessionCleared(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
