import { Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import type { AiTraceMoment } from '../../../../core/api/ai.js';
import { errorText } from '../../api/client.js';
import { traceLink } from '../../api/evidence.js';
import { traceMomentText } from './trace-moment.js';

/**
 * "Open in trace" for one claim: a signed link to the stored trace (the same route as the
 * evidence panel's), with the moment named beside it, since the viewer cannot be pointed at one.
 */
export function AiTraceLink({ moment }: { moment: AiTraceMoment }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const open = async () => {
    setBusy(true);
    setError(null);
    try {
      // A trace newer than the viewer may not open; the evidence panel says so and offers the download.
      const link = await traceLink(moment.sha256);
      window.open(link.url, '_blank', 'noopener');
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Group gap={8} wrap="wrap" data-testid="ai-trace-moment">
      <Button size="compact-xs" variant="light" loading={busy} onClick={() => void open()} data-testid="ai-open-in-trace">
        Open in trace
      </Button>
      <Text span size="xs" c="dimmed" style={{ wordBreak: 'break-word' }}>
        {traceMomentText(moment)}
      </Text>
      {error && (
        <Text span size="xs" c="red">
          {error}
        </Text>
      )}
    </Group>
  );
}
