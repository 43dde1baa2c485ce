import { Anchor, Group, List, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { AiEvidenceItem, AiEvidenceRun } from '../../../../core/api/ai.js';
import { formatDate } from '../../lib/format.js';
import { AiTraceLink } from './AiTraceLink.js';

const MAX_RUN_LINKS = 6;
const runsKey = (item: AiEvidenceItem): string => item.runs.map((r) => `${r.runId}@${r.date}`).join(',');

/** One run a claim rests on: a link to the stored run, with its date. */
function RunRef({ run }: { run: AiEvidenceRun }) {
  const date = run.date ? formatDate(run.date) : null;
  if (run.runId === null) return <Text span size="xs" c="dimmed">{date ?? 'a sent result'}</Text>;
  return (
    <Anchor component={Link} to={`/upload/${run.runId}`} size="xs" data-testid="ai-evidence-run">
      run #{run.runId}
      {date ? ` · ${date}` : ''}
    </Anchor>
  );
}

/** The claims behind the answer, each with its runs and the error lines it read; all report text shown as text. */
export function AiEvidenceList({ evidence }: { evidence: readonly AiEvidenceItem[] }) {
  if (evidence.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No evidence: there were no results to read.
      </Text>
    );
  }
  return (
    <List size="sm" spacing="xs">
      {evidence.map((item, i) => {
        // Claims often rest on the same runs: those are linked once.
        const sameRuns = i > 0 && item.runs.length > 0 && runsKey(item) === runsKey(evidence[i - 1]!);
        return (
        <List.Item key={i} data-testid="ai-evidence">
          <Stack gap={4}>
            <Text size="sm">{item.claim}</Text>
            {sameRuns && (
              <Text size="xs" c="dimmed">
                in the same runs
              </Text>
            )}
            {item.runs.length > 0 && !sameRuns && (
              <Group gap={8} wrap="wrap">
                {item.runs.slice(-MAX_RUN_LINKS).map((run, j) => (
                  <RunRef key={j} run={run} />
                ))}
                {item.runs.length > MAX_RUN_LINKS && (
                  <Text span size="xs" c="dimmed">
                    and earlier ones
                  </Text>
                )}
              </Group>
            )}
            {item.lines.length > 0 && (
              <Text size="xs" ff="monospace" c="dimmed" data-testid="ai-evidence-lines" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                {item.lines.join('\n')}
              </Text>
            )}
            {item.trace && <AiTraceLink moment={item.trace} />}
          </Stack>
        </List.Item>
        );
      })}
    </List>
  );
}
