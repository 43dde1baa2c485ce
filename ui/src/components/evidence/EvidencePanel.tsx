import { SimpleGrid, Stack, Text } from '@mantine/core';
import type { AttemptEvidence } from '../../../../core/api/evidence.js';
import { attemptsToShow } from './attachment-state.js';
import { AttemptComparison } from './AttemptComparison.js';
import { AttemptEvidenceCard } from './AttemptEvidenceCard.js';

const attemptLabel = (attempt: AttemptEvidence) => (attempt.retry === 0 ? 'First attempt' : `Retry ${attempt.retry}`);

/**
 * The evidence of one result: each failed attempt; for a flaky result, the last failing attempt
 * and the passing retry side by side (stacked on a phone), the earlier failures after them.
 */
export function EvidencePanel({ attempts, resultId }: { attempts: readonly AttemptEvidence[]; resultId?: number }) {
  const { failed, passingRetry } = attemptsToShow(attempts);
  if (failed.length === 0) return null;
  if (!failed.some((attempt) => attempt.attachments.length > 0) && !(passingRetry && passingRetry.attachments.length > 0)) {
    return (
      <Text size="xs" c="dimmed" data-testid="evidence-none">
        No evidence was stored for this result: run with screenshot, video or trace on, and store attachments (see the README).
      </Text>
    );
  }
  if (passingRetry) {
    const lastFailure = failed[failed.length - 1]!;
    const earlier = failed.slice(0, -1);
    return (
      <Stack gap="sm" data-testid="evidence-panel">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" data-testid="evidence-compare">
          <AttemptEvidenceCard attempt={lastFailure} label={`${attemptLabel(lastFailure)} (failed)`} />
          <AttemptEvidenceCard attempt={passingRetry} label={`${attemptLabel(passingRetry)} (passed)`} />
        </SimpleGrid>
        {resultId !== undefined && <AttemptComparison resultId={resultId} />}
        {earlier.map((attempt) => (
          <AttemptEvidenceCard key={attempt.retry} attempt={attempt} label={attemptLabel(attempt)} />
        ))}
      </Stack>
    );
  }
  return (
    <Stack gap="sm" data-testid="evidence-panel">
      {failed.map((attempt) => (
        <AttemptEvidenceCard key={attempt.retry} attempt={attempt} label={attemptLabel(attempt)} />
      ))}
    </Stack>
  );
}
