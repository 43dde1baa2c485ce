/** docs/screens.md#session-theme-and-events: a successful upload or review broadcasts this so other screens reload. */
export const TEST_DATA_UPDATED = 'testDataUpdated';

export function broadcastTestDataUpdated(): void {
  window.dispatchEvent(new Event(TEST_DATA_UPDATED));
}

export function onTestDataUpdated(listener: () => void): () => void {
  window.addEventListener(TEST_DATA_UPDATED, listener);
  return () => window.removeEventListener(TEST_DATA_UPDATED, listener);
}
