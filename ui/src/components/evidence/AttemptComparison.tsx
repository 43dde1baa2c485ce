import { Alert, Image, Loader, Paper, SimpleGrid, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import type { AttemptComparisonResponse, ComparedFrame } from '../../../../core/api/attempt-comparison.js';
import type { TraceAction } from '../../../../core/trace/summary.js';
import { errorText } from '../../api/client.js';
import { attemptComparison } from '../../api/evidence.js';
import { Enlarged } from './EvidenceScreenshot.js';
import { useBlobAt } from './use-evidence-blob.js';

const firstLine = (text: string | null) => (text ? text.split('\n', 1)[0]! : 'passed');
const wrap = { overflowWrap: 'anywhere' as const, whiteSpace: 'pre-wrap' as const };

/**
 * The failing attempt beside the passing one, read top to bottom: where they parted, what only
 * the failing attempt had, which actions took longer. Report text is shown as text.
 */
export function AttemptComparison({ resultId }: { resultId: number }) {
  const [answer, setAnswer] = useState<AttemptComparisonResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    attemptComparison(resultId).then(
      (body) => live && setAnswer(body),
      (failure: unknown) => live && setError(errorText(failure)),
    );
    return () => {
      live = false;
    };
  }, [resultId]);
  if (error) return <Alert color="red" data-testid="attempt-comparison-error">{error}</Alert>;
  if (!answer) return <Loader size="xs" />;
  const c = answer.comparison;
  if (!c) return null;
  const parted = c.partedAt;
  return (
    <Paper withBorder p="sm" data-testid="attempt-comparison">
      <Stack gap="xs">
        <Title order={5}>What the failing attempt did differently</Title>
        {answer.partnerText && (
          <Text size="xs" c="dimmed" data-testid="attempt-comparison-partner">
            {answer.partnerText}
          </Text>
        )}
        {answer.tracesMissing && (
          <Text size="xs" c="dimmed" data-testid="attempt-comparison-traces-missing">
            {answer.note ?? 'Compared from the report’s steps: traces of both attempts would tell more.'}
          </Text>
        )}
        <Section label="Where they parted">
          {parted ? (
            <Stack gap={2} data-testid="attempt-comparison-parted">
              <Text size="sm" fw={600} style={wrap}>
                {(parted.failing ?? parted.passing)!.title}
                {(parted.failing ?? parted.passing)!.locator ? ` · ${(parted.failing ?? parted.passing)!.locator}` : ''}
              </Text>
              <Outcome label="Failing attempt" action={parted.failing} />
              <Outcome label="Passing attempt" action={parted.passing} />
              {answer.frames && (answer.frames.failing || answer.frames.passing) && (
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" mt={4} data-testid="attempt-comparison-frames">
                  <PartingFrame label="Failing attempt" frame={answer.frames.failing} />
                  <PartingFrame label="Passing attempt" frame={answer.frames.passing} />
                </SimpleGrid>
              )}
              {answer.framesNote && (
                <Text size="xs" c="dimmed" data-testid="attempt-comparison-no-frames">
                  {answer.framesNote}
                </Text>
              )}
            </Stack>
          ) : (
            <Text size="sm" c="dimmed">Both attempts did the same actions with the same outcomes.</Text>
          )}
        </Section>
        <Listing label="Requests only the failing attempt failed or got another answer" items={c.requestsOnlyFailing.map((r) => `${r.method} ${r.url} — ${r.failing.status ?? r.failing.failure ?? 'no answer'}${r.passing ? ` (passing: ${r.passing.status ?? r.passing.failure ?? 'no answer'})` : ''}${r.reason === 'slower' ? `, ${r.failing.durationMs} ms against ${r.passing?.durationMs} ms` : ''}`)} />
        <Listing label="Console errors only in the failing attempt" items={c.consoleErrorsOnlyFailing.map((m) => m.text)} />
        <Listing label="Page errors only in the failing attempt" items={c.pageErrorsOnlyFailing} />
        <Listing label="Actions whose durations differ most" items={c.slowerActions.map((a) => `${a.title}${a.locator ? ` · ${a.locator}` : ''}: ${a.failingMs} ms failing, ${a.passingMs} ms passing`)} />
      </Stack>
    </Paper>
  );
}

/** What one attempt's page showed where they parted: a thumbnail a click enlarges. */
function PartingFrame({ label, frame }: { label: string; frame: ComparedFrame | null }) {
  const { url, error } = useBlobAt(frame?.url ?? null);
  const [open, setOpen] = useState(false);
  const thumbnail = useRef<HTMLButtonElement>(null);
  const caption = frame ? `${label} · at the end of ${frame.action}` : label;
  let body: React.ReactNode;
  if (!frame) body = <Text size="xs" c="dimmed">No frame before this point</Text>;
  else if (error) body = <Text size="xs" c="red">{`The frame could not be loaded: ${error}`}</Text>;
  else if (!url) body = <Loader size="sm" />;
  else {
    body = (
      <UnstyledButton ref={thumbnail} onClick={() => setOpen(true)} aria-label={`Enlarge the frame of the ${label.toLowerCase()}`} data-testid="attempt-comparison-frame">
        <Image src={url} alt={`${label}: the page at the end of ${frame.action}`} w="100%" mah={240} fit="contain" radius="sm" style={{ border: '1px solid var(--mantine-color-default-border)' }} />
      </UnstyledButton>
    );
  }
  const close = () => {
    setOpen(false);
    thumbnail.current?.focus();
  };
  return (
    <Stack gap={4} style={{ minWidth: 0 }}>
      <Text size="xs" fw={600} style={wrap}>
        {caption}
      </Text>
      {body}
      {open && url && <Enlarged url={url} name={caption} onClose={close} />}
    </Stack>
  );
}

function Section({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" fw={700} c="dimmed" tt="uppercase">
        {label}
      </Text>
      {children}
    </Stack>
  );
}

function Outcome({ label, action }: { label: string; action: TraceAction | null }) {
  return (
    <Text size="sm" style={wrap}>
      {label}: {action ? `${firstLine(action.error)}${action.durationMs !== null ? ` (after ${action.durationMs} ms)` : ''}` : 'did not do it'}
    </Text>
  );
}

function Listing({ label, items }: { label: string; items: string[] }) {
  return (
    <Section label={label}>
      {items.length === 0 ? (
        <Text size="sm" c="dimmed">None</Text>
      ) : (
        items.map((item, i) => (
          <Text key={i} size="sm" ff="monospace" style={wrap}>
            {item}
          </Text>
        ))
      )}
    </Section>
  );
}
