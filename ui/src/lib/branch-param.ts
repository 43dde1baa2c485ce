import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * The branch filter of a screen, kept in the address (`?branch=…`) so a filtered view can be
 * bookmarked and shared; absent means every branch. Other query parameters are left alone.
 */
export function useBranchParam(): [string | null, (branch: string | null) => void] {
  const [params, setParams] = useSearchParams();
  const branch = params.get('branch') || null;
  const setBranch = useCallback(
    (next: string | null) =>
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          if (next) updated.set('branch', next);
          else updated.delete('branch');
          return updated;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [branch, setBranch];
}
