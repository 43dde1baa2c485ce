const DAY_MS = 86_400_000;
/** A quarantine hides a test from the gate: it lasts a month unless said otherwise. */
export const DEFAULT_QUARANTINE_EXPIRY = '30d';

/**
 * When a quarantine entry stops applying: `14d`, `4w` from the start of today (UTC), or
 * through a date `YYYY-MM-DD` (it ends as that day ends, UTC); `never` for no end. Always the
 * start of a UTC day, so an answer cached for a day can never outlive an entry.
 */
export function parseExpiry(text: string, now: number): number | null {
  const value = text.trim().toLowerCase();
  if (value === 'never') return null;
  const startOfToday = Math.floor(now / DAY_MS) * DAY_MS;
  const age = /^(\d{1,4})([dw])$/.exec(value);
  if (age) {
    const days = Number(age[1]) * (age[2] === 'w' ? 7 : 1);
    if (days < 1 || days > 3650) throw new Error(`the expiry must be from 1 day to 10 years, not ${JSON.stringify(text)}`);
    return startOfToday + days * DAY_MS;
  }
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (date) {
    const [y, m, d] = [Number(date[1]), Number(date[2]), Number(date[3])];
    const start = Date.UTC(y, m - 1, d);
    const back = new Date(start);
    if (back.getUTCFullYear() !== y || back.getUTCMonth() !== m - 1 || back.getUTCDate() !== d) throw new Error(`${value} is not a date`);
    if (start < startOfToday) throw new Error(`${value} is in the past: a quarantine must end in the future`);
    return start + DAY_MS;
  }
  throw new Error(`the expiry must be a number of days or weeks (14d, 4w), a date YYYY-MM-DD, or never; not ${JSON.stringify(text)}`);
}

/**
 * The last UTC day an entry applies (YYYY-MM-DD): it stops as the next UTC day starts. The one
 * date every command, screen and export prints for an expiry, as "through" that day, the day
 * `--expires YYYY-MM-DD` names.
 */
export function quarantineLastDay(expiresAt: number): string {
  return new Date(expiresAt - DAY_MS).toISOString().slice(0, 10);
}
