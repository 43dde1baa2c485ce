import { Badge, Paper, Table, Text, Title, Tooltip } from '@mantine/core';
import type { SlowTest } from '../../../../core/api/analytics.js';
import { BrowserLabel } from '../../components/BrowserLabel.js';
import { fileName, formatDuration, truncate } from '../../lib/format.js';
import { performanceBadge } from './slow-stats.js';
import sticky from '../../components/sticky-column.module.css';

/** docs/screens.md#display-rules: the test name is cut to 50 characters; the full title is one hover away. */
const TITLE_MAX = 50;

export function SlowTestsTable({ tests }: { tests: readonly SlowTest[] }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Title order={4} mb="sm">
        Slowest Tests
      </Title>
      <Table.ScrollContainer minWidth={960}>
        <Table striped highlightOnHover verticalSpacing="xs" data-testid="slow-tests-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th className={sticky.sticky}>Test Name</Table.Th>
              <Table.Th>File</Table.Th>
              <Table.Th>Browser</Table.Th>
              <Table.Th>Project</Table.Th>
              <Table.Th ta="right">Avg Duration</Table.Th>
              <Table.Th ta="right">Max Duration</Table.Th>
              <Table.Th>Performance</Table.Th>
              <Table.Th ta="right">Total Runs</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {tests.map((t) => {
              const badge = performanceBadge(t.avg_duration);
              return (
                <Table.Tr key={`${t.test_file}\u0000${t.test_full_title}\u0000${t.browser}\u0000${t.project}`}>
                  <Table.Td className={sticky.sticky}>
                    <Tooltip label={t.test_full_title || t.test_title} multiline maw={480} openDelay={200}>
                      <Text size="sm" fw={500} component="span">
                        {truncate(t.test_title, TITLE_MAX)}
                      </Text>
                    </Tooltip>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" c="dimmed" title={t.test_file}>
                      {fileName(t.test_file)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <BrowserLabel browser={t.browser} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{t.project}</Text>
                  </Table.Td>
                  <Table.Td ta="right">{formatDuration(t.avg_duration)}</Table.Td>
                  <Table.Td ta="right">{formatDuration(t.max_duration)}</Table.Td>
                  <Table.Td>
                    <Badge color={badge.color} variant="light" tt="none">
                      {badge.label}
                    </Badge>
                  </Table.Td>
                  <Table.Td ta="right">{t.total_runs.toLocaleString()}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
