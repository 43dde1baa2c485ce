import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { User } from '../../../core/api/auth.js';
import * as api from '../api/calls.js';
import { clearSession, onSessionCleared, readSession, writeSession, writeUser } from './storage.js';

export interface Session {
  user: User | null;
  /** True until the start-up check of a restored session has finished (docs/screens.md#session-theme-and-events). */
  loading: boolean;
  pendingCount: number;
  login(username: string, password: string): Promise<void>;
  /** Takes the session of a single sign-on the provider finished; resolves with the page to open. */
  completeSso(): Promise<string>;
  logout(): Promise<void>;
  refreshPendingCount(): Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

const PENDING_POLL_MS = 15_000;

export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<User | null>(() => readSession()?.user ?? null);
  const [loading, setLoading] = useState(() => readSession() !== null);
  const [pendingCount, setPendingCount] = useState(0);

  const refreshPendingCount = useCallback(async () => {
    try {
      setPendingCount(await api.pendingCount());
    } catch (error) {
      console.error('Failed to load the pending uploads count', error);
      setPendingCount(0);
    }
  }, []);

  // Uploads from CI arrive while the page is open: the count follows them without a reload,
  // checked every PENDING_POLL_MS and whenever the tab comes back into view.
  useEffect(() => {
    if (!user) return;
    const refreshIfVisible = () => {
      if (document.visibilityState === 'visible') void refreshPendingCount();
    };
    const timer = window.setInterval(refreshIfVisible, PENDING_POLL_MS);
    document.addEventListener('visibilitychange', refreshIfVisible);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', refreshIfVisible);
    };
  }, [user, refreshPendingCount]);

  // A 401 anywhere clears the stored session; the provider follows.
  useEffect(() => onSessionCleared(() => setUser(null)), []);

  // Start-up: a restored session is validated against the server, and cleared if that fails.
  useEffect(() => {
    const restored = readSession();
    if (!restored) return;
    // A sign-in that happens while this check runs replaces the session it is checking.
    let cancelled = false;
    const superseded = () => cancelled || readSession()?.token !== restored.token;
    api
      .me()
      .then(({ user: fresh }) => {
        if (superseded()) return;
        writeUser(fresh);
        setUser(fresh);
        void refreshPendingCount();
      })
      .catch((error: unknown) => {
        console.error('Stored session is no longer valid', error);
        if (!superseded()) clearSession();
      })
      .finally(() => {
        if (!cancelled) setLoading(false);
      });
    return () => {
      cancelled = true;
    };
  }, [refreshPendingCount]);

  const login = useCallback(
    async (username: string, password: string) => {
      try {
        const answer = await api.login(username, password);
        writeSession({ token: answer.token, sessionToken: answer.sessionToken, user: answer.user });
        setUser(answer.user);
        setLoading(false);
        await refreshPendingCount();
      } catch (error) {
        console.error('Login failed', error);
        throw error;
      }
    },
    [refreshPendingCount],
  );

  const completeSso = useCallback(async () => {
    const answer = await api.ssoSession();
    writeSession({ token: answer.token, sessionToken: answer.sessionToken, user: answer.user });
    setUser(answer.user);
    setLoading(false);
    await refreshPendingCount();
    return answer.returnTo;
  }, [refreshPendingCount]);

  const logout = useCallback(async () => {
    const sessionToken = readSession()?.sessionToken;
    try {
      if (sessionToken) await api.logout(sessionToken);
    } catch (error) {
      console.error('Logout call failed', error);
    } finally {
      clearSession();
      setPendingCount(0);
    }
  }, []);

  const value = useMemo(
    () => ({ user, loading, pendingCount, login, completeSso, logout, refreshPendingCount }),
    [user, loading, pendingCount, login, completeSso, logout, refreshPendingCount],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}
