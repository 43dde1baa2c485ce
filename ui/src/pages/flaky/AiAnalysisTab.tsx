import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { AiAnalysisResult } from '../../../../core/api/ai.js';
import type { BrowserEntry, TestResultDetail } from '../../../../core/api/analytics.js';
import { aiAnalysis } from '../../api/calls.js';
import { aiAnalysisRequest } from './ai-request.js';
import { AiAnalysisView } from './AiAnalysisView.js';

interface Props {
  title: string;
  entry: BrowserEntry;
  /** The Test History; null until it has loaded. */
  history: TestResultDetail[] | null;
  analysis: AiAnalysisResult | null;
  onAnalysis(result: AiAnalysisResult): void;
}

/** docs/screens.md#flaky-test-analysis: idle -> analyzing (disabled) -> done (regenerate available). */
export function AiAnalysisTab({ title, entry, history, analysis, onAnalysis }: Props) {
  const [running, setRunning] = useState(false);

  const analyze = async () => {
    if (history === null) {
      window.alert('Please wait for test details to load before generating analysis.');
      return;
    }
    setRunning(true);
    try {
      onAnalysis(await aiAnalysis(aiAnalysisRequest(title, entry, history)));
    } catch (error) {
      console.error(error);
      window.alert('Failed to generate AI analysis. Please try again.');
    } finally {
      setRunning(false);
    }
  };

  const button = (
    <Button onClick={() => void analyze()} disabled={running}>
      {running ? 'Analyzing...' : analysis ? 'Regenerate Analysis' : 'Analyze Test'}
    </Button>
  );

  if (!analysis) {
    return (
      <Center py="xl">
        <Stack align="center" gap="xs" maw={460} ta="center">
          <Title order={4}>Ready to Analyze</Title>
          <Text c="dimmed" size="sm">
            Looks for patterns in this test&apos;s recent runs on {entry.browser} — errors, timing and steps — and suggests a likely root cause and fixes.
          </Text>
          {button}
        </Stack>
      </Center>
    );
  }
  return <AiAnalysisView analysis={analysis} action={button} />;
}
