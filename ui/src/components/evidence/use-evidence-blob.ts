import { useEffect, useState } from 'react';
import { errorText } from '../../api/client.js';
import { fetchBlob } from '../../api/evidence.js';

export interface EvidenceBlob {
  url: string | null;
  blob: Blob | null;
  error: string | null;
}

/** A blob: URL of one stored blob, made when shown and revoked when no longer shown. */
export function useEvidenceBlob(sha256: string | null): EvidenceBlob {
  return useBlobAt(sha256 ? `/api/evidence/${encodeURIComponent(sha256)}` : null);
}

/** The same for any API path that answers with bytes (a comparison's frame). */
export function useBlobAt(path: string | null): EvidenceBlob {
  const [state, setState] = useState<EvidenceBlob>({ url: null, blob: null, error: null });
  useEffect(() => {
    if (!path) return;
    const abort = new AbortController();
    let url: string | null = null;
    fetchBlob(path, abort.signal).then(
      (blob) => {
        url = URL.createObjectURL(blob);
        setState({ url, blob, error: null });
      },
      (error: unknown) => {
        if ((error as Error).name !== 'AbortError') setState({ url: null, blob: null, error: errorText(error) });
      },
    );
    return () => {
      abort.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [path]);
  return state;
}
