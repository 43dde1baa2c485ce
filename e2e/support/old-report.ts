import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const DAY = 86_400_000;

/**
 * One of the project's own reports moved `daysAgo` days into the past (every start time), written
 * to `dir`: a store whose runs are all older than the default 30-day window.
 */
export function oldReport(dir: string, daysAgo: number): { path: string; newest: string } {
  const text = readFileSync(join(import.meta.dirname, '../../fixtures/reports/own/run-1.json'), 'utf8');
  const shift = (iso: string) => new Date(Date.parse(iso) - daysAgo * DAY + (Date.now() - Date.parse('2026-11-21T17:09:33.213Z'))).toISOString();
  let newest = '';
  const moved = text.replace(/"startTime": ?"([^"]+)"/g, (_all, iso: string) => {
    const at = shift(iso);
    if (at > newest) newest = at;
    return `"startTime": "${at}"`;
  });
  const path = join(dir, `old-${daysAgo}.json`);
  writeFileSync(path, moved);
  return { path, newest };
}
