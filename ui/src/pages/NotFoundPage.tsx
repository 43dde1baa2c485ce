import { Button, Code, Group, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router-dom';
import { EmptyState } from '../components/PageState.js';

/** An address that names no screen (an old bookmark, a typo): say so and offer the way back. */
export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <EmptyState title="Page not found">
      <Text c="dimmed">
        There is no screen at <Code>{`#${pathname}`}</Code>. It may have moved, or the link may be mistyped.
      </Text>
      <Group justify="center" mt="sm">
        <Button component={Link} to="/">
          Go to the dashboard
        </Button>
        <Button component={Link} to="/flaky-tests" variant="light">
          Flaky Tests
        </Button>
      </Group>
    </EmptyState>
  );
}
