import { Button, Paper, Stack } from '@mantine/core';
import { useEffect, useState } from 'react';
import * as api from '../api/calls.js';
import { EmptyState, PageStates } from '../components/PageState.js';
import { onTestDataUpdated } from '../lib/events.js';
import { useApi } from '../lib/use-api.js';
import { useBranchParam } from '../lib/branch-param.js';
import { UNOWNED } from '../../../core/owners/test-owners.js';
import { useSession } from '../session/SessionProvider.js';
import { readSession } from '../session/storage.js';
import { DashboardContent } from './dashboard/DashboardContent.js';
import { EmptyDashboard } from './dashboard/EmptyDashboard.js';
import { EmptyWindow } from './dashboard/EmptyWindow.js';
import { OverviewCard } from './dashboard/OverviewCard.js';
import { PendingBanner } from './dashboard/PendingBanner.js';
import { PendingReviewDialog } from './dashboard/PendingReviewDialog.js';
import { canReview, markReviewReminderClosed, reviewReminderClosed } from './dashboard/review-reminder.js';

/** The dashboard, / (docs/screens.md#dashboard): the figures of one time range, the review banner and its dialog. */
export function DashboardPage() {
  const [days, setDays] = useState(30);
  const [branch, setBranch] = useBranchParam();
  // One owner's tests (or the unowned ones): the per-test figures, lists and counts are theirs.
  const [owner, setOwner] = useState<string | null>(null);
  // Bumped by testDataUpdated and by a finished review: the dashboard loads again. Its answer
  // carries the trend counts, so the trends reload with it.
  const [generation, setGeneration] = useState(0);
  const dashboard = useApi(() => api.dashboard(days, branch, owner), [days, branch, owner, generation]);
  const { user, pendingCount, refreshPendingCount } = useSession();

  const sessionToken = readSession()?.sessionToken;
  const [reviewOpen, setReviewOpen] = useState(false);
  // Until a reviewer has closed it once this session, the dialog opens by itself whenever something waits for review.
  const [reminderClosed, setReminderClosed] = useState(() => reviewReminderClosed(sessionToken));
  const dialogOpen = reviewOpen || (canReview(user) && !reminderClosed && pendingCount > 0);

  useEffect(() => onTestDataUpdated(() => setGeneration((n) => n + 1)), []);

  const onReviewClosed = (reviewedAny: boolean) => {
    markReviewReminderClosed(sessionToken);
    setReminderClosed(true);
    setReviewOpen(false);
    if (!reviewedAny) return;
    setGeneration((n) => n + 1);
    void refreshPendingCount();
  };

  const data = dashboard.data;
  const summary = data?.summary?.[0];
  const totalTests = summary?.total_tests ?? 0;

  let body;
  if (!data || !summary) body = null;
  else if (totalTests === 0 && owner !== null)
    body = (
      <Paper withBorder radius="md" p="xl" data-testid="empty-owner">
        <EmptyState title={`No results of ${owner === UNOWNED ? 'unowned tests' : `tests owned by ${owner}`}${days === 0 ? '' : ` in the last ${days} days`}`}>
          <Button variant="light" mt="sm" onClick={() => setOwner(null)}>
            Show all owners
          </Button>
        </EmptyState>
      </Paper>
    );
  else if (totalTests === 0 && days !== 0 && (data.stored?.runs ?? 0) > 0) body = <EmptyWindow days={days} stored={data.stored} onWiden={setDays} />;
  else if (totalTests === 0 && branch !== null)
    body = (
      <Paper withBorder radius="md" p="xl" data-testid="empty-branch">
        <EmptyState title={`No runs on ${branch}${days === 0 ? '' : ` in the last ${days} days`}`}>
          <Button variant="light" mt="sm" onClick={() => setBranch(null)}>
            Show all branches
          </Button>
        </EmptyState>
      </Paper>
    );
  else if (totalTests === 0) body = <EmptyDashboard />;
  else body = <DashboardContent data={data} days={days} />;

  return (
    <Stack gap="lg" pb="xl">
      {pendingCount > 0 && <PendingBanner count={pendingCount} onReview={() => setReviewOpen(true)} />}
      <OverviewCard days={days} onDaysChange={setDays} branch={branch} onBranchChange={setBranch} showReport={totalTests > 0 && !dashboard.error} refreshing={dashboard.loading && !!data} owner={owner} onOwnerChange={setOwner} />
      <PageStates
        error={dashboard.error && !dashboard.loading ? { text: 'Failed to load dashboard data' } : null}
        loading={dashboard.loading && !data ? 'Loading dashboard...' : null}
        empty={!data || !summary ? { title: 'No data available' } : null}
      >
        {body}
      </PageStates>
      {dialogOpen && <PendingReviewDialog onClose={onReviewClosed} pendingCount={pendingCount} />}
    </Stack>
  );
}
