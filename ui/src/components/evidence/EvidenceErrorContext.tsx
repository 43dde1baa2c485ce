import { Code, Loader, ScrollArea, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { AttachmentInfo } from '../../../../core/api/evidence.js';
import { useEvidenceBlob } from './use-evidence-blob.js';

// Playwright's error context is a page snapshot of a few KB; a huge one is cut, not rendered whole.
const MAX_CHARS = 100_000;

/** Playwright's error context (the page's accessibility snapshot at the failure), shown as text. */
export function EvidenceErrorContext({ attachment }: { attachment: AttachmentInfo }) {
  const { blob, error } = useEvidenceBlob(attachment.sha256);
  const [text, setText] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void blob?.text().then((value) => live && setText(value.length > MAX_CHARS ? `${value.slice(0, MAX_CHARS)}\n… (${value.length - MAX_CHARS} more characters: download it to read them)` : value));
    return () => {
      live = false;
    };
  }, [blob]);
  if (error) return <Text size="xs" c="red">{`The error context could not be loaded: ${error}`}</Text>;
  if (text === null) return <Loader size="sm" />;
  return (
    <ScrollArea.Autosize mah={260} type="auto">
      <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="evidence-error-context">
        {text}
      </Code>
    </ScrollArea.Autosize>
  );
}
