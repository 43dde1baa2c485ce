/**
 * `--older-than`: an age (90d, 12w, 6m, 1y) counted back from today in UTC, or a date
 * (YYYY-MM-DD). Returns the start (midnight UTC) of the day before which runs count as old: that
 * day itself is kept, so "runs started before 2026-03-02" means exactly what it says.
 */
export function parseCutoff(text: string, now = Date.now()): number {
  const value = text.trim();
  const age = /^(\d{1,5})([dwmy])$/.exec(value);
  if (age) {
    const n = Number(age[1]);
    if (n < 1) throw new Error(`--older-than must be at least 1${age[2]}, not ${JSON.stringify(text)}`);
    const unit = age[2]!;
    const startOfToday = Math.floor(now / 86_400_000) * 86_400_000;
    if (unit === 'd' || unit === 'w') return startOfToday - n * (unit === 'w' ? 7 : 1) * 86_400_000;
    const at = new Date(startOfToday);
    // Calendar months in UTC; a day that the earlier month lacks clamps to its last day.
    const months = unit === 'y' ? n * 12 : n;
    const target = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - months, 1));
    const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
    target.setUTCDate(Math.min(at.getUTCDate(), lastDay));
    return target.getTime();
  }
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (date) {
    const [y, m, d] = [Number(date[1]), Number(date[2]), Number(date[3])];
    const ms = Date.UTC(y, m - 1, d);
    const back = new Date(ms);
    if (back.getUTCFullYear() !== y || back.getUTCMonth() !== m - 1 || back.getUTCDate() !== d) throw new Error(`--older-than: ${value} is not a date`);
    if (ms > now) throw new Error(`--older-than: ${value} is in the future; that would remove runs that have not happened yet`);
    return ms;
  }
  throw new Error(`--older-than must be an age such as 90d, 12w, 6m or 1y, or a date YYYY-MM-DD, not ${JSON.stringify(text)}`);
}
