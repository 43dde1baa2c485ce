import { Loader, Text } from '@mantine/core';
import type { AttachmentInfo } from '../../../../core/api/evidence.js';
import { useEvidenceBlob } from './use-evidence-blob.js';

export function EvidenceVideo({ attachment }: { attachment: AttachmentInfo }) {
  const { url, error } = useEvidenceBlob(attachment.sha256);
  if (error) return <Text size="xs" c="red">{`Video "${attachment.name}" could not be loaded: ${error}`}</Text>;
  if (!url) return <Loader size="sm" />;
  return <video controls preload="metadata" src={url} style={{ width: '100%', maxHeight: 360, background: '#000', borderRadius: 4 }} data-testid="evidence-video" aria-label={`Video ${attachment.name}`} />;
}
