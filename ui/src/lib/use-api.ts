import { useCallback, useEffect, useState } from 'react';

export interface ApiState<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  /** Loads again; the previous data stays on screen until the answer arrives. */
  reload(): void;
}

interface Settled<T> {
  request: string | null;
  data: T | undefined;
  error: unknown;
}

/**
 * Loads `fetch()` on mount, whenever `deps` change, and on reload(). An answer that arrives
 * after a newer request started (or after unmount) is dropped, so a slow answer for an old
 * range never overwrites a newer one.
 */
export function useApi<T>(fetch: () => Promise<T>, deps: readonly unknown[]): ApiState<T> {
  const [nonce, setNonce] = useState(0);
  // One key per request (deps are plain values): loading means "the last settled answer is not this request's".
  const request = `${JSON.stringify(deps)}#${nonce}`;
  const [settled, setSettled] = useState<Settled<T>>({ request: null, data: undefined, error: null });

  useEffect(() => {
    let current = true;
    fetch().then(
      (data) => current && setSettled({ request, data, error: null }),
      (error: unknown) => {
        if (!current) return;
        console.error(error);
        setSettled((previous) => ({ request, data: previous.data, error }));
      },
    );
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [request]);

  // Stable, so pages can subscribe it to events without re-subscribing on every render.
  const reload = useCallback(() => setNonce((n) => n + 1), []);
  return { data: settled.data, error: settled.error, loading: settled.request !== request, reload };
}
