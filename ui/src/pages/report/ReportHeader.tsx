import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useNavigate } from 'react-router-dom';
import { ThemeToggle } from '../../theme/ThemeToggle.js';
import { periodLabel } from '../../lib/time-range.js';
import classes from './report.module.css';
import { dashboardLink } from './report-link.js';

/** The report's title, its window and its branch when one is chosen (all branches otherwise), and the buttons that do not print. */
export function ReportHeader({ days, branch }: { days: number; branch: string | null }) {
  const navigate = useNavigate();
  return (
    // Wraps on a phone: the buttons go below the title rather than off the edge.
    <Group justify="space-between" align="center" wrap="wrap" gap="sm" mb="lg" component="header">
      <Group gap="md" wrap="wrap">
        <Button variant="default" onClick={() => navigate(dashboardLink(branch))} className={classes.noPrint} leftSection={<span aria-hidden="true">←</span>}>
          Back to Dashboard
        </Button>
        <Stack gap={0}>
          <Title order={1} fz={28} data-testid="report-title">
            Executive Quality Report
          </Title>
          <Text c="dimmed" fw={500} data-testid="report-period">
            {periodLabel(days)}
          </Text>
          {branch !== null && (
            <Text c="dimmed" fw={500} style={{ overflowWrap: 'anywhere' }} data-testid="report-branch">
              Branch: {branch}
            </Text>
          )}
        </Stack>
      </Group>
      <Group gap="sm" wrap="nowrap" className={classes.noPrint}>
        <Button variant="light" onClick={() => window.print()}>
          Print
        </Button>
        <ThemeToggle />
      </Group>
    </Group>
  );
}
