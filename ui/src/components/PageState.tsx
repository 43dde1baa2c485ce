import { Alert, Button, Center, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** The loading line of a screen, e.g. 'Loading dashboard...', announced to screen readers as a status. */
export function LoadingState({ text }: { text: string }) {
  return (
    <Center py="xl" role="status">
      <Stack align="center" gap="sm">
        <Loader size="md" />
        <Text c="dimmed">{text}</Text>
      </Stack>
    </Center>
  );
}

/** What a failed load offers: load again where that can help, or go back where the address names nothing. */
export interface PageError {
  text: string;
  onRetry?(): void;
  onBack?(): void;
}

/** A failed load, with the exact text of docs/screens.md#error-messages and its one action: Try Again, else Go Back. */
export function ErrorState({ text, onRetry, onBack }: PageError) {
  const action = onRetry ? { label: 'Try Again', onClick: onRetry } : onBack ? { label: 'Go Back', onClick: onBack } : null;
  return (
    <Alert color="red" variant="light" title={text} role="alert">
      {action && (
        <Button mt="sm" size="xs" variant="light" color="red" onClick={action.onClick}>
          {action.label}
        </Button>
      )}
    </Alert>
  );
}

export function EmptyState({ title, children, testId }: { title: string; children?: ReactNode; testId?: string }) {
  return (
    <Center py="xl" data-testid={testId}>
      <Stack align="center" gap="xs" maw={520} ta="center">
        <Text fw={600} size="lg">
          {title}
        </Text>
        {children}
      </Stack>
    </Center>
  );
}

/** The error → loading → empty → content chain every page repeats: the first that applies is shown. */
export function PageStates({ error, loading, empty, children }: { error?: PageError | null; loading?: string | null; empty?: { title: string; body?: ReactNode; testId?: string } | null; children: ReactNode }) {
  if (error) return <ErrorState {...error} />;
  if (loading) return <LoadingState text={loading} />;
  if (empty) return <EmptyState title={empty.title} testId={empty.testId}>{empty.body}</EmptyState>;
  return <>{children}</>;
}
