import { Group, Stack, Text } from '@mantine/core';
import type { TrendDirection } from '../../../../core/analytics/formulas.js';
import type { BrowserEntry, FlakyTestGroup } from '../../../../core/api/analytics.js';
import { RowFigures } from '../../components/RowFigures.js';
import { fileName, flakyPassRateColor, fractionPercent, oneDecimal } from '../../lib/format.js';
import { BrowserButtons } from './BrowserButtons.js';
import { groupTrend } from './flaky-filter.js';
import { TrendBadge } from './TrendBadge.js';
import { OpenForBadge } from './OpenForBadge.js';
import { OwnerList } from '../../components/OwnerList.js';
import type { QuarantineView } from '../../../../core/api/quarantine.js';
import { ExpandArrow } from './ExpandArrow.js';
import { DetailsButton, GroupName } from './FlakyGroupColumns.js';

/**
 * A group on a phone: its expand arrow beside name and file, the browsers (each opens its dialog), then the figures of
 * the wide table's columns under their names, the overall trend and the Details button.
 */
export function FlakyGroupStackedCell({ group, open, quarantine, onOpen, onTrend }: {
  group: FlakyTestGroup;
  open: boolean;
  quarantine: QuarantineView | null;
  onOpen(entry: BrowserEntry): void;
  onTrend(direction: TrendDirection): void;
}) {
  return (
    <Group gap={6} align="flex-start" wrap="nowrap">
      <Text span c="dimmed" w={18} style={{ flexShrink: 0 }}>
        <ExpandArrow open={open} />
      </Text>
      <Stack gap={6} style={{ flex: 1, minWidth: 0 }}>
        <div>
          <GroupName group={group} quarantine={quarantine} />
          <Text size="xs" c="dimmed" title={group.test_file} data-testid="group-file">
            {fileName(group.test_file)}
          </Text>
          <Group gap={6} mt={4} wrap="wrap">
            <OwnerList owners={group.owners} size="xs" />
            {group.time_to_fix && <OpenForBadge timeToFix={group.time_to_fix} />}
          </Group>
        </div>
        <BrowserButtons group={group} onOpen={onOpen} />
        <RowFigures
          figures={[
            {
              label: 'Worst Rate',
              value: (
                <Text span inherit c={flakyPassRateColor(group.worst_pass_rate)} data-testid="group-pass-rate">
                  {fractionPercent(group.worst_pass_rate)}
                </Text>
              ),
            },
            { label: 'Runs', value: <span data-testid="group-runs">{group.total_runs_all_browsers}</span> },
            { label: 'Failed', value: <span data-testid="group-failed">{group.total_failed_all_browsers}</span> },
            { label: 'Score', value: <span data-testid="group-score">{oneDecimal(group.highest_flaky_score)}</span> },
          ]}
        />
        <Group justify="space-between" gap="xs" wrap="wrap">
          <TrendBadge trend={groupTrend(group)} onClick={onTrend} />
          <DetailsButton group={group} onOpen={onOpen} />
        </Group>
      </Stack>
    </Group>
  );
}
