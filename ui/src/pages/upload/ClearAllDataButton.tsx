import { Button } from '@mantine/core';
import { useState } from 'react';
import { clearAll } from '../../api/calls.js';
import { errorText } from '../../api/client.js';

export const CLEAR_FIRST_CONFIRM = 'Are you sure you want to clear ALL test data? Every test run, test result and upload will be deleted.';
export const CLEAR_SECOND_CONFIRM = 'This cannot be undone. Permanently delete ALL test data now?';

/** docs/screens.md#upload: Clear All Data needs two confirmations. */
export function ClearAllDataButton({ onCleared }: { onCleared(): void }) {
  const [busy, setBusy] = useState(false);
  const clear = async () => {
    if (!window.confirm(CLEAR_FIRST_CONFIRM)) return;
    if (!window.confirm(CLEAR_SECOND_CONFIRM)) return;
    setBusy(true);
    try {
      await clearAll();
      window.alert('All test data cleared successfully');
      onCleared();
    } catch (error) {
      console.error('Clear all failed', error);
      window.alert(`Failed to clear data: ${errorText(error)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button color="red" variant="outline" loading={busy} onClick={() => void clear()}>
      Clear All Data
    </Button>
  );
}
