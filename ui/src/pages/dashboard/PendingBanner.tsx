import { Button, Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';

/** docs/screens.md#dashboard: shown only while uploads wait for review; opens the review dialog. */
export function PendingBanner({ count, onReview }: { count: number; onReview(): void }) {
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      data-testid="pending-banner"
      style={{ borderColor: 'var(--mantine-color-yellow-outline)', background: 'var(--mantine-color-yellow-light)' }}
    >
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="md" wrap="nowrap">
          <ThemeIcon color="yellow" variant="filled" size={40} radius="xl" aria-hidden="true">
            <ClockIcon />
          </ThemeIcon>
          <Stack gap={0}>
            <Text fw={700}>{count} Upload(s) Pending Review</Text>
            <Text size="sm" c="dimmed">
              Click here to review and approve or reject recent uploads
            </Text>
          </Stack>
        </Group>
        <Button color="yellow" variant="filled" onClick={onReview}>
          Review Now
        </Button>
      </Group>
    </Paper>
  );
}

function ClockIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <circle cx="12" cy="12" r="9" />
      <path d="M12 7v5l3 2" />
    </svg>
  );
}
