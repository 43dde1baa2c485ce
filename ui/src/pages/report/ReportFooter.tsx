import { Divider, Group, Text } from '@mantine/core';
import { reportId } from './report-figures.js';

export function ReportFooter({ days, generatedAt }: { days: number; generatedAt: Date }) {
  return (
    <>
      <Divider mt="md" mb="sm" />
      <Group justify="space-between" c="dimmed" component="footer">
        <Text size="sm" data-testid="report-id">
          Report ID: {reportId(days, generatedAt)}
        </Text>
        <Text size="sm" data-testid="report-generated">
          Generated {generatedAt.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}
        </Text>
      </Group>
    </>
  );
}
