import { Alert, Badge, Code, Group, List, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { LOW_CONFIDENCE, NO_BROWSER_PATTERNS, type AiAnalysisResult } from '../../../../core/api/ai.js';
import { CAUSE_LABELS, isCauseClass } from '../../../../core/api/cause-classes.js';
import { formatDateTime } from '../../lib/format.js';
import { AiEvidenceList } from './AiEvidenceList.js';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md" data-testid="ai-section">
      <Title order={5} mb="xs">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

function engineText(analysis: AiAnalysisResult): string {
  const engine = analysis.engine === 'model' ? `model${analysis.model ? ` ${analysis.model}` : ''}` : 'local rules engine';
  return `by the ${engine} in ${Math.round(analysis.generatedInMs)} ms`;
}

/** Flaky or not, first and in plain words: whatever else is uncertain, a failure a retry rescued is flaky. */
function StabilityLine({ analysis }: { analysis: AiAnalysisResult }) {
  const flaky = analysis.stability === 'flaky';
  const text = analysis.stabilityText;
  return (
    <Alert variant="light" color={flaky ? 'orange' : text.startsWith('Fails every') ? 'red' : 'gray'} p="sm" data-testid="ai-stability" data-stability={analysis.stability}>
      <Text fw={600} size="sm">
        {text}
      </Text>
    </Alert>
  );
}

/** The sections of an analysis result; every text in it is shown as text. */
export function AiAnalysisView({ analysis, action }: { analysis: AiAnalysisResult; action: ReactNode }) {
  const confidence = Math.round(analysis.confidence * 100);
  return (
    <Stack gap="md" data-testid="ai-result">
      <Group justify="space-between" wrap="wrap">
        <Group gap="xs">
          <Text size="sm" c="dimmed" data-testid="ai-generated">
            Generated {formatDateTime(analysis.timestamp)} {engineText(analysis)}
          </Text>
          <Badge variant="light" color={analysis.engine === 'model' ? 'violet' : 'gray'} tt="none">
            {analysis.engine === 'model' ? (analysis.model ?? 'model') : 'local'}
          </Badge>
        </Group>
        {action}
      </Group>
      <StabilityLine analysis={analysis} />
      <Section title="Pattern Analysis">
        {analysis.patterns.length === 0 ? (
          <Text size="sm" c="dimmed">
            No patterns found.
          </Text>
        ) : (
          <List size="sm" spacing={4}>
            {analysis.patterns.map((p, i) => (
              <List.Item key={i}>{p}</List.Item>
            ))}
          </List>
        )}
      </Section>
      <Section title="Likely Root Cause">
        {isCauseClass(analysis.causeClass) && (
          <Badge variant="light" color={analysis.causeClass === 'not-sure' ? 'gray' : 'blue'} tt="none" mb="xs" data-testid="ai-cause-class">
            {CAUSE_LABELS[analysis.causeClass]}
          </Badge>
        )}
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {analysis.rootCause}
        </Text>
      </Section>
      <Section title="Evidence">
        <AiEvidenceList evidence={analysis.evidence ?? []} />
      </Section>
      <Section title="Recommended Fixes">
        <Stack gap="sm">
          {analysis.recommendations.map((r, i) =>
            typeof r === 'string' ? (
              <Text key={i} size="sm">
                {i + 1}. {r}
              </Text>
            ) : (
              <div key={i}>
                <Text size="sm" fw={600}>
                  {i + 1}. {r.title}
                </Text>
                <Text size="sm" c="dimmed">
                  {r.description}
                </Text>
                {r.codeExample && (
                  <Code block mt={6}>
                    {r.codeExample}
                  </Code>
                )}
              </div>
            ),
          )}
        </Stack>
      </Section>
      {analysis.browserNotes !== NO_BROWSER_PATTERNS && (
        <Section title="Browser-Specific Notes">
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {analysis.browserNotes}
          </Text>
        </Section>
      )}
      <Section title="Analysis Confidence">
        <Group gap="sm" wrap="nowrap">
          <Progress value={confidence} color={confidence >= 70 ? 'green' : confidence >= 40 ? 'yellow' : 'red'} style={{ flex: 1 }} aria-label="Analysis confidence" />
          <Text fw={700} data-testid="ai-confidence">
            {confidence}%
          </Text>
        </Group>
        {analysis.confidence < LOW_CONFIDENCE && (
          <Text size="sm" c="dimmed" mt={6} data-testid="ai-low-confidence">
            Low confidence: the evidence is thin, so treat the cause above as a lead to check, not a verdict.
          </Text>
        )}
      </Section>
    </Stack>
  );
}
