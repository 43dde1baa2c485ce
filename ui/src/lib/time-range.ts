/** The time ranges of docs/screens.md#time-window (0 = all time), shared by the dashboard, the browser comparison and the report. */
export const TIME_RANGES = [
  { value: '7', label: 'Last 7 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '90', label: 'Last 90 days' },
  { value: '0', label: 'All time' },
];

/** A `days` query value; anything but a whole number of days falls back to the default 30. */
export function parseDays(value: string | null, fallback = 30): number {
  if (value === null || value.trim() === '') return fallback;
  const days = Number(value);
  return Number.isInteger(days) && days >= 0 ? days : fallback;
}

/** 'All Time' or 'Last N Days', as the executive summary and the report name their period. */
export function periodLabel(days: number): string {
  return days === 0 ? 'All Time' : `Last ${days} Days`;
}
