import { Alert, List } from '@mantine/core';

/** Shown when any test averages over 10 s (docs/screens.md#slow-tests): the usual ways to win time back. */
export function OptimisationTips() {
  return (
    <Alert color="blue" variant="light" title="Performance Optimization Tips" data-testid="optimisation-tips">
      <List size="sm" spacing={4}>
        <List.Item>Wait for specific elements or responses instead of fixed timeouts.</List.Item>
        <List.Item>Reuse signed-in state (storageState) instead of logging in through the UI in every test.</List.Item>
        <List.Item>Create test data through the API rather than by clicking through forms.</List.Item>
        <List.Item>Mock slow third-party services and block assets the test does not need.</List.Item>
        <List.Item>Split long end-to-end flows into smaller tests that can run in parallel.</List.Item>
      </List>
    </Alert>
  );
}
