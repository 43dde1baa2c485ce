import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { LoadingState } from '../components/PageState.js';
import { useSession } from '../session/SessionProvider.js';

/** Where a visitor was going; the login page returns them there (docs/screens.md#routes-and-the-header). */
export interface ReturnState {
  from?: string;
}

export function RequireAuth({ children }: { children: ReactNode }) {
  const { user, loading } = useSession();
  const location = useLocation();
  if (loading) return <LoadingState text="Loading..." />;
  if (!user) {
    const from = `${location.pathname}${location.search}`;
    return <Navigate to="/login" replace state={{ from } satisfies ReturnState} />;
  }
  return <>{children}</>;
}
