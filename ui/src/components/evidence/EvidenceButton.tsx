import { Button, Modal, Text } from '@mantine/core';
import { useState } from 'react';
import type { AttemptEvidence } from '../../../../core/api/evidence.js';
import { usePhone } from '../../lib/use-phone.js';
import { attemptsToShow } from './attachment-state.js';
import { EvidencePanel } from './EvidencePanel.js';

/** "Evidence" beside a result that failed an attempt: its screenshots, video, trace and error context in a dialog. */
export function EvidenceButton({ title, attempts, resultId }: { title: string; attempts: readonly AttemptEvidence[] | undefined; resultId?: number }) {
  const [open, setOpen] = useState(false);
  const phone = usePhone();
  if (!attempts || attemptsToShow(attempts).failed.length === 0) return null;
  const count = attempts.reduce((sum, attempt) => sum + attempt.attachments.length, 0);
  return (
    <>
      <Button size="compact-xs" variant="light" onClick={() => setOpen(true)} data-testid="evidence-button">
        Evidence{count > 0 ? ` (${count})` : ''}
      </Button>
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
        size={1100}
        fullScreen={phone}
        closeButtonProps={{ 'aria-label': 'Close evidence' }}
        title={
          <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
            {title}
          </Text>
        }
      >
        <EvidencePanel attempts={attempts} resultId={resultId} />
      </Modal>
    </>
  );
}
