import { Badge, Box, Group, Paper, Stack, Text } from '@mantine/core';
import type { AttachmentInfo, AttemptEvidence } from '../../../../core/api/evidence.js';
import type { AttachmentKind } from '../../../../core/api/attachments.js';
import { formatDuration } from '../../lib/format.js';
import { missingReason } from './attachment-state.js';
import { EvidenceDownload } from './EvidenceDownload.js';
import { EvidenceErrorContext } from './EvidenceErrorContext.js';
import { EvidenceScreenshot } from './EvidenceScreenshot.js';
import { EvidenceVideo } from './EvidenceVideo.js';
import { OpenTraceButton } from './OpenTraceButton.js';

const KIND_LABEL: Record<AttachmentKind, string> = { screenshot: 'Screenshot', video: 'Video', trace: 'Trace', 'error-context': 'Error context', other: 'Attachment' };

function Section({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Box>
      <Text size="xs" fw={700} c="dimmed" tt="uppercase" mb={4}>
        {label}
      </Text>
      {children}
    </Box>
  );
}

function Missing({ attachment, reason }: { attachment: AttachmentInfo; reason: string }) {
  return (
    <Text size="xs" c="dimmed" data-testid="evidence-missing" data-state={attachment.state}>
      {`${KIND_LABEL[attachment.kind]} "${attachment.name}" ${reason}.`}
    </Text>
  );
}

function Shown({ attachment }: { attachment: AttachmentInfo }) {
  switch (attachment.kind) {
    case 'screenshot':
      return <EvidenceScreenshot attachment={attachment} />;
    case 'video':
      return <EvidenceVideo attachment={attachment} />;
    case 'trace':
      return <OpenTraceButton attachment={attachment} />;
    case 'error-context':
      return <EvidenceErrorContext attachment={attachment} />;
    default:
      return <EvidenceDownload attachment={attachment} />;
  }
}

const ORDER: AttachmentKind[] = ['screenshot', 'video', 'trace', 'error-context', 'other'];
const SECTION: Record<AttachmentKind, string> = { screenshot: 'Screenshots', video: 'Video', trace: 'Trace', 'error-context': 'Error context', other: 'Other attachments' };

/** One attempt's evidence: screenshots, video, trace, error context, other attachments, and why any is missing. */
export function AttemptEvidenceCard({ attempt, label }: { attempt: AttemptEvidence; label: string }) {
  const passed = attempt.status === 'passed';
  return (
    <Paper withBorder radius="md" p="sm" data-testid="attempt-evidence" data-retry={attempt.retry} data-status={attempt.status} style={{ minWidth: 0 }}>
      <Group gap="xs" mb="xs">
        <Text size="sm" fw={700}>
          {label}
        </Text>
        <Badge color={passed ? 'green' : 'red'} variant="light">
          {attempt.status}
        </Badge>
        <Text size="xs" c="dimmed">
          {formatDuration(attempt.duration_ms)}
        </Text>
      </Group>
      {attempt.attachments.length === 0 ? (
        <Text size="xs" c="dimmed">
          No attachments were recorded for this attempt.
        </Text>
      ) : (
        <Stack gap="sm">
          {ORDER.map((kind) => {
            const items = attempt.attachments.filter((attachment) => attachment.kind === kind);
            if (items.length === 0) return null;
            return (
              <Section key={kind} label={SECTION[kind]}>
                <Group gap="sm" align="flex-start" wrap="wrap">
                  {items.map((attachment, i) => {
                    const reason = missingReason(attachment);
                    return <Box key={`${attachment.name}-${i}`} maw="100%">{reason ? <Missing attachment={attachment} reason={reason} /> : <Shown attachment={attachment} />}</Box>;
                  })}
                </Group>
              </Section>
            );
          })}
        </Stack>
      )}
    </Paper>
  );
}
