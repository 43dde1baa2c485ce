import { Button } from '@mantine/core';
import { useState } from 'react';
import type { AttachmentInfo } from '../../../../core/api/evidence.js';
import { errorText } from '../../api/client.js';
import { fetchEvidence } from '../../api/evidence.js';
import { downloadBlob } from '../../pages/flaky/download.js';
import { formatBytes } from './attachment-state.js';

/** Any attachment, saved under a name made of its own (safe characters only). */
export function EvidenceDownload({ attachment, label }: { attachment: AttachmentInfo; label?: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    if (!attachment.sha256) return;
    setBusy(true);
    setError(null);
    try {
      downloadBlob(await fetchEvidence(attachment.sha256), attachment.name.replace(/[^A-Za-z0-9._-]+/g, '-') || 'attachment');
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="compact-xs" variant="default" loading={busy} onClick={() => void save()} title={error ?? undefined} color={error ? 'red' : undefined} data-testid="evidence-download">
      {label ?? `Download ${attachment.name}`} {attachment.size !== null ? `(${formatBytes(attachment.size)})` : ''}
    </Button>
  );
}
