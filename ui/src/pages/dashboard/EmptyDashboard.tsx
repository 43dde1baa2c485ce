import { Button, Paper, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { EmptyState } from '../../components/PageState.js';

/** No test results in the range yet: point the user at the upload screen. */
export function EmptyDashboard() {
  return (
    <Paper withBorder radius="md" p="xl">
      <EmptyState title="Welcome to flakeboard">
        <Text c="dimmed">Get started by uploading your first test results to see analytics and insights.</Text>
        <Button component={Link} to="/upload" mt="sm">
          Upload Test Results
        </Button>
      </EmptyState>
    </Paper>
  );
}
