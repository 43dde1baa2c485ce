import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { dashboard } from '../../api/calls.js';
import { useApi } from '../../lib/use-api.js';
import { emptyWindowText, widerWindow } from '../../lib/widen-window.js';

/**
 * Trends always shows the last 30 days (docs/screens.md#time-window). When they are empty but older runs
 * are stored, say how many and when the newest ran, and lead to a report that covers them.
 */
export function StoredRunsNote() {
  const { data } = useApi(() => dashboard(30), []);
  const stored = data?.stored;
  if (!stored || stored.runs === 0) return <Text c="dimmed">Daily trends appear once test results from the last 30 days are uploaded.</Text>;
  const wider = widerWindow(stored, new Date());
  return (
    <Text c="dimmed" data-testid="stored-runs-note">
      {emptyWindowText(30, stored)}.{' '}
      <Anchor component={Link} to={`/report?days=${wider}`}>
        {wider === 0 ? 'See them in the all-time report' : `See them in the report of the last ${wider} days`}
      </Anchor>
    </Text>
  );
}
