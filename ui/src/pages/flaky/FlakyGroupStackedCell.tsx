import { Group, Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { TrendDirection } from '../../../../core/analytics/formulas.js';
import type { BrowserEntry, FlakyTestGroup } from '../../../../core/api/analytics.js';
import { RowFigures } from '../../components/RowFigures.js';
import { fileName, flakyPassRateColor, fractionPercent, oneDecimal } from '../../lib/format.js';
import { BrowserButtons } from './BrowserButtons.js';
import { groupTrend } from './flaky-filter.js';
import { TrendBadge } from './TrendBadge.js';
import { OpenForBadge } from './OpenForBadge.js';
import { OwnerList } from '../../components/OwnerList.js';

/**
 * A group on a phone: name and file, the browsers (each opens its dialog), then the figures of
 * the wide table's columns under their names, the overall trend and the Details button.
 */
export function FlakyGroupStackedCell({ group, name, details, onOpen, onTrend }: {
  group: FlakyTestGroup;
  name: ReactNode;
  details: ReactNode;
  onOpen(entry: BrowserEntry): void;
  onTrend(direction: TrendDirection): void;
}) {
  return (
    <Table.Td pl={4}>
      <Stack gap={6}>
        <div>
          {name}
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
          {details}
        </Group>
      </Stack>
    </Table.Td>
  );
}
