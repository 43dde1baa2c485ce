import { Group, Modal, Stack, Tabs, Text } from '@mantine/core';
import { useState } from 'react';
import type { AiAnalysisResult } from '../../../../core/api/ai.js';
import type { BrowserEntry, FlakyTestGroup, TestResultDetail } from '../../../../core/api/analytics.js';
import { dailyStats, testDetails } from '../../api/calls.js';
import { BrowserLabel } from '../../components/BrowserLabel.js';
import { useApi } from '../../lib/use-api.js';
import { AiAnalysisTab } from './AiAnalysisTab.js';
import type { QuarantineView } from '../../../../core/api/quarantine.js';
import { DetailSummary } from './DetailSummary.js';
import { QuarantinePanel } from './QuarantinePanel.js';
import { OwnersAndTimeToFix } from './OwnersAndTimeToFix.js';

type QuarantineLookup = (title: string, file: string, browser: string) => QuarantineView | null;
import { cachedTestDetails } from './test-details-cache.js';
import { TestHistoryTab } from './TestHistoryTab.js';
import { TrendsTab } from './TrendsTab.js';

export interface DialogSelection {
  group: FlakyTestGroup;
  entry: BrowserEntry;
}

export type DetailTab = 'history' | 'trends' | 'ai';

/**
 * The detail dialog of one test on one browser (docs/screens.md#flaky-test-analysis). It opens on Test History;
 * closing it (Escape, backdrop, close button) resets it to that tab. With a branch chosen, its
 * history and daily figures count that branch's runs alone, and its header says so.
 */
export function FlakyDetailDialog({
  selection,
  opened,
  onClose,
  quarantineFor,
  branch = null,
}: {
  selection: DialogSelection | null;
  opened: boolean;
  onClose(): void;
  quarantineFor?: QuarantineLookup;
  branch?: string | null;
}) {
  const [tab, setTab] = useState<DetailTab>('history');
  const close = () => {
    setTab('history');
    onClose();
  };
  return (
    <Modal
      opened={opened && selection !== null}
      onClose={close}
      size={1040}
      padding="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
      title={
        selection && (
          <Stack gap={4}>
            <Text fw={700} size="lg" style={{ overflowWrap: 'anywhere' }} data-testid="dialog-title">
              {selection.group.test_title}
            </Text>
            <Group gap="xs">
              <BrowserLabel browser={selection.entry.browser} />
              <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {selection.group.test_file}
              </Text>
              {branch !== null && (
                <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }} data-testid="dialog-branch">
                  Branch: {branch}
                </Text>
              )}
            </Group>
          </Stack>
        )
      }
    >
      {selection && (
        <DetailContent
          key={`${selection.group.test_file}\u0000${selection.group.test_title}\u0000${selection.entry.browser}\u0000${branch ?? ''}`}
          selection={selection}
          branch={branch}
          tab={tab}
          onTab={setTab}
          quarantine={quarantineFor?.(selection.group.test_title, selection.group.test_file, selection.entry.browser) ?? null}
        />
      )}
    </Modal>
  );
}

function DetailContent({ selection, branch, tab, onTab, quarantine }: { selection: DialogSelection; branch: string | null; tab: DetailTab; onTab(tab: DetailTab): void; quarantine: QuarantineView | null }) {
  const { group, entry } = selection;
  const details = useApi(() => cachedTestDetails(group.test_title, entry.browser, group.test_file, branch), [group.test_title, entry.browser, group.test_file, branch]);
  // Older runs, page by page, after the cached first page.
  const [older, setOlder] = useState<TestResultDetail[]>([]);
  const [loadingOlder, setLoadingOlder] = useState(false);
  // docs/screens.md#error-messages: a daily stats failure clears the stats and shows the empty state.
  const stats = useApi(() => dailyStats(group.test_file, group.test_title, entry.browser, branch), [group.test_file, group.test_title, entry.browser, branch]);
  const [analysis, setAnalysis] = useState<AiAnalysisResult | null>(null);

  const first = details.data;
  const history = first ? [...first.items, ...older] : undefined;
  const historyLoaded = first !== undefined && !details.loading;
  const loadOlder = async () => {
    if (!first || !history) return;
    setLoadingOlder(true);
    try {
      const next = await testDetails(group.test_title, entry.browser, group.test_file, Math.floor(history.length / first.pageSize) + 1, first.pageSize, branch);
      setOlder((current) => [...current, ...next.items]);
    } catch (error) {
      // docs/screens.md#error-messages: detail load failures are only logged.
      console.error(error);
    } finally {
      setLoadingOlder(false);
    }
  };

  return (
    <Stack gap="md">
      <DetailSummary entry={entry} />
      <OwnersAndTimeToFix group={group} />
      <QuarantinePanel title={group.test_title} file={group.test_file} browser={entry.browser} entry={quarantine} defaultOwner={(group.owners ?? []).map((o) => o.owner).join(' ')} />
      <Tabs value={tab} onChange={(value) => onTab((value as DetailTab | null) ?? 'history')} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="history">Test History</Tabs.Tab>
          <Tabs.Tab value="trends">Trends</Tabs.Tab>
          <Tabs.Tab value="ai">AI Analysis</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="history">
          {/* A failed history load is only logged (docs/screens.md#error-messages): it shows as no history. */}
          <TestHistoryTab
            history={details.error && !details.loading ? (history ?? []) : history}
            total={first?.total ?? 0}
            loadingOlder={loadingOlder}
            onOlder={() => void loadOlder()}
          />
        </Tabs.Panel>
        <Tabs.Panel value="trends">
          <TrendsTab title={group.test_title} browser={entry.browser} stats={stats.error && !stats.loading ? [] : stats.data} />
        </Tabs.Panel>
        <Tabs.Panel value="ai">
          <AiAnalysisTab title={group.test_title} entry={entry} history={historyLoaded ? (history ?? []) : null} analysis={analysis} onAnalysis={setAnalysis} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
