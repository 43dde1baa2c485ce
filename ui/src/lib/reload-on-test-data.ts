import { useEffect } from 'react';
import { onTestDataUpdated } from './events.js';

/** docs/screens.md#session-theme-and-events: screens showing stored results load again when an upload or review broadcasts testDataUpdated. */
export function useReloadOnTestDataUpdated(reload: () => void): void {
  useEffect(() => onTestDataUpdated(reload), [reload]);
}
