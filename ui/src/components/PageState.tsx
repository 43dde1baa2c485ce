import { Alert, Button, Center, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** The loading line of a screen, e.g. 'Loading dashboard...'. */
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

/** A failed load, with the exact text of docs/screens.md#error-messages and an optional action. */
export function ErrorState({ text, action }: { text: string; action?: { label: string; onClick(): void } }) {
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

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Center py="xl">
      <Stack align="center" gap="xs" maw={520} ta="center">
        <Text fw={600} size="lg">
          {title}
        </Text>
        {children}
      </Stack>
    </Center>
  );
}

/** The loading → error → empty → content chain every page repeats, in that order. */
export function PageStates({ error, loading, empty, children }: { error?: { text: string; onRetry?(): void } | null; loading?: string | null; empty?: { title: string; body?: ReactNode } | null; children: ReactNode }) {
  if (error) return <ErrorState text={error.text} action={error.onRetry ? { label: 'Try Again', onClick: error.onRetry } : undefined} />;
  if (loading) return <LoadingState text={loading} />;
  if (empty) return <EmptyState title={empty.title}>{empty.body}</EmptyState>;
  return <>{children}</>;
}
