import { useEffect } from 'react';
import { onTestDataUpdated } from './events.js';

/** SPEC.md section 4: screens showing stored results load again when an upload or review broadcasts testDataUpdated. */
export function useReloadOnTestDataUpdated(reload: () => void): void {
  useEffect(() => onTestDataUpdated(reload), [reload]);
}
