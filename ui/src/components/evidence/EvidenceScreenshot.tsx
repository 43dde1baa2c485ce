import { Image, Loader, Modal, Text, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import type { AttachmentInfo } from '../../../../core/api/evidence.js';
import { useEvidenceBlob } from './use-evidence-blob.js';

/** A screenshot as a thumbnail; a click shows it at full size. */
export function EvidenceScreenshot({ attachment }: { attachment: AttachmentInfo }) {
  const { url, error } = useEvidenceBlob(attachment.sha256);
  const [open, setOpen] = useState(false);
  if (error) return <Text size="xs" c="red">{`Screenshot "${attachment.name}" could not be loaded: ${error}`}</Text>;
  if (!url) return <Loader size="sm" />;
  return (
    <>
      <UnstyledButton onClick={() => setOpen(true)} aria-label={`Enlarge screenshot ${attachment.name}`} data-testid="evidence-screenshot">
        <Image src={url} alt={`Screenshot ${attachment.name}`} h={180} w="auto" maw="100%" fit="contain" radius="sm" style={{ border: '1px solid var(--mantine-color-default-border)' }} />
      </UnstyledButton>
      <Modal opened={open} onClose={() => setOpen(false)} size="auto" title={attachment.name} closeButtonProps={{ 'aria-label': 'Close screenshot' }}>
        <Image src={url} alt={`Screenshot ${attachment.name}, full size`} maw="90vw" mah="80vh" fit="contain" data-testid="evidence-screenshot-large" />
      </Modal>
    </>
  );
}
