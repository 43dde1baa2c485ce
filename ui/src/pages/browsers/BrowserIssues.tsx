import { Alert, List } from '@mantine/core';
import type { BrowserRow } from './browser-rows.js';

/** The dashboard's 'Browser Issues Detected' alert leads here: name the browsers that fail more than they pass. */
export function BrowserIssues({ rows }: { rows: readonly BrowserRow[] }) {
  const failing = rows.filter((r) => r.failingMoreThanPassing);
  if (failing.length === 0) {
    return (
      <Alert color="green" variant="light" title="No browser issues detected" data-testid="browser-issues">
        No browser has more failed tests than passed tests in this period.
      </Alert>
    );
  }
  return (
    <Alert color="red" variant="light" title="Browser Issues Detected" data-testid="browser-issues">
      These browsers have more failed tests than passed tests:
      <List size="sm" mt="xs">
        {failing.map((r) => (
          <List.Item key={r.browser}>
            {r.browser}: {r.failed.toLocaleString()} failed, {r.passed.toLocaleString()} passed
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
