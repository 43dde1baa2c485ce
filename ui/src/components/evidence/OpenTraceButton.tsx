import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { AttachmentInfo } from '../../../../core/api/evidence.js';
import type { TraceLinkResponse } from '../../../../core/api/trace-link.js';
import { errorText } from '../../api/client.js';
import { traceLink } from '../../api/evidence.js';
import { EvidenceDownload } from './EvidenceDownload.js';

/**
 * Opens the trace in Playwright's trace viewer, served by this server, in a new tab, through a
 * link that works for a few minutes. A trace from a newer Playwright than the viewer says so
 * first and offers the download.
 */
export function OpenTraceButton({ attachment }: { attachment: AttachmentInfo }) {
  const [busy, setBusy] = useState(false);
  const [newer, setNewer] = useState<TraceLinkResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const open = async () => {
    if (!attachment.sha256) return;
    setBusy(true);
    setError(null);
    try {
      const link = await traceLink(attachment.sha256);
      if (link.newerThanViewer) setNewer(link);
      else window.open(link.url, '_blank', 'noopener');
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap={6}>
      <Group gap="xs">
        <Button size="xs" loading={busy} onClick={() => void open()} data-testid="open-trace">
          Open trace
        </Button>
        <EvidenceDownload attachment={attachment} label="Download trace" />
      </Group>
      {newer && (
        <Alert color="yellow" p="xs" data-testid="trace-newer">
          <Text size="xs">
            {`This trace was recorded by Playwright ${newer.tracePlaywrightVersion ?? '(unknown)'}, newer than the trace viewer this server ships (${newer.viewerPlaywrightVersion}): it may not open. Download it and run \`npx playwright show-trace trace.zip\` with that Playwright.`}
          </Text>
          <Button size="compact-xs" variant="subtle" mt={4} onClick={() => window.open(newer.url, '_blank', 'noopener')}>
            Open anyway
          </Button>
        </Alert>
      )}
      {error && (
        <Text size="xs" c="red" data-testid="trace-error">
          {error}
        </Text>
      )}
    </Stack>
  );
}
