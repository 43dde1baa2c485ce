import { Box, CloseButton, Image, Loader, Overlay, Portal, Text, UnstyledButton } from '@mantine/core';
import { useRef, useState } from 'react';
import type { AttachmentInfo } from '../../../../core/api/evidence.js';
import { useEvidenceBlob } from './use-evidence-blob.js';

/** A screenshot as a thumbnail; a click shows it at full size. */
export function EvidenceScreenshot({ attachment }: { attachment: AttachmentInfo }) {
  const { url, error } = useEvidenceBlob(attachment.sha256);
  const [open, setOpen] = useState(false);
  const thumbnail = useRef<HTMLButtonElement>(null);
  if (error) return <Text size="xs" c="red">{`Screenshot "${attachment.name}" could not be loaded: ${error}`}</Text>;
  if (!url) return <Loader size="sm" />;
  const close = () => {
    setOpen(false);
    thumbnail.current?.focus();
  };
  return (
    <>
      <UnstyledButton ref={thumbnail} onClick={() => setOpen(true)} aria-label={`Enlarge screenshot ${attachment.name}`} data-testid="evidence-screenshot">
        <Image src={url} alt={`Screenshot ${attachment.name}`} h={180} w="auto" maw="100%" fit="contain" radius="sm" style={{ border: '1px solid var(--mantine-color-default-border)' }} />
      </UnstyledButton>
      {open && <Enlarged url={url} name={attachment.name} onClose={close} />}
    </>
  );
}

/**
 * The screenshot over everything, closed by a click, the close button or Escape. Not a second
 * Modal: it opens inside the evidence or flaky-test dialog, and Escape must close it alone (the
 * dialogs ignore an Escape whose target says data-mantine-stop-propagation).
 */
export function Enlarged({ url, name, onClose }: { url: string; name: string; onClose(): void }) {
  return (
    <Portal>
      <Overlay fixed zIndex={1000} color="#000" backgroundOpacity={0.8} center onClick={onClose}>
        <Box
          // The portal mounts its children a render late: focused when the node is there.
          ref={(node) => node?.focus()}
          tabIndex={-1}
          role="dialog"
          aria-modal="true"
          aria-label={`Screenshot ${name}, full size`}
          data-mantine-stop-propagation="true"
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.stopPropagation();
              onClose();
            }
          }}
          style={{ position: 'relative', outline: 'none', maxWidth: '94vw', maxHeight: '90vh' }}
        >
          <Image src={url} alt={`Screenshot ${name}, full size`} maw="94vw" mah="90vh" fit="contain" radius="sm" bg="white" data-testid="evidence-screenshot-large" />
          <CloseButton
            aria-label="Close screenshot"
            data-mantine-stop-propagation="true"
            variant="filled"
            size="lg"
            style={{ position: 'absolute', top: 8, right: 8 }}
            onClick={(event) => {
              event.stopPropagation();
              onClose();
            }}
          />
        </Box>
      </Overlay>
    </Portal>
  );
}
