import { Button, Group, Loader, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { TIME_RANGES } from '../../lib/time-range.js';
import { BranchPicker } from '../../components/BranchPicker.js';
import { OwnerPicker } from '../../components/OwnerPicker.js';
import { UNOWNED } from '../../../../core/owners/test-owners.js';
import { reportLink } from '../report/report-link.js';


/** The 'Dashboard Overview' card: the time range (and branch) every figure below is computed over. */
export function OverviewCard({
  days,
  onDaysChange,
  branch,
  onBranchChange,
  showReport,
  refreshing,
  owner,
  onOwnerChange,
}: {
  days: number;
  onDaysChange(days: number): void;
  branch: string | null;
  onBranchChange(branch: string | null): void;
  showReport: boolean;
  refreshing: boolean;
  owner: string | null;
  onOwnerChange(owner: string | null): void;
}) {
  return (
    <Paper withBorder radius="md" p="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="md">
        <Stack gap={2}>
          <Group gap="xs">
            <Title order={2}>Dashboard Overview</Title>
            {refreshing && <Loader size="xs" aria-label="Refreshing" />}
          </Group>
          <Text c="dimmed" data-testid="overview-subtitle">
            {days === 0 ? 'Showing all test results' : `Showing test results from the last ${days} days`}
            {branch !== null && ` on branch ${branch}`}
            {owner !== null && (owner === UNOWNED ? ', tests no one owns' : `, tests owned by ${owner}`)}
          </Text>
        </Stack>
        <Group align="flex-end" gap="sm" wrap="wrap">
          <BranchPicker value={branch} onChange={onBranchChange} w={200} />
          <OwnerPicker value={owner} onChange={onOwnerChange} w={200} />
          <NativeSelect label="Time Range" data={TIME_RANGES} value={String(days)} onChange={(event) => onDaysChange(Number(event.currentTarget.value))} w={170} />
          {showReport && (
            <Button component={Link} to={reportLink(days, branch)} variant="light">
              View Report
            </Button>
          )}
        </Group>
      </Group>
    </Paper>
  );
}
