/** Display rules (docs/screens.md#display-rules) that are about the screen, not the data. */
import { isCriticalFlaky } from '../../../core/analytics/formulas.js';
export { formatDuration } from '../../../core/analytics/formulas.js';

/** One decimal, as every rate and score is shown. */
export function oneDecimal(value: number): string {
  return (Number.isFinite(value) ? value : 0).toFixed(1);
}

/** A 0-100 value as '87.5%'. */
export function percent(value: number): string {
  return `${oneDecimal(value)}%`;
}

/** A 0-1 fraction as '87.5%'. */
export function fractionPercent(fraction: number): string {
  return percent(fraction * 100);
}

/** Pass-rate colour on dashboard cards and the uploads table: 90 or more good, 70 or more middling, else bad. */
export function passRateColor(percentValue: number): 'green' | 'yellow' | 'red' {
  if (percentValue >= 90) return 'green';
  if (percentValue >= 70) return 'yellow';
  return 'red';
}

/** Flaky pass-rate colour (0-1): critical (0.5 or less) red, below 0.8 amber, otherwise green. */
export function flakyPassRateColor(fraction: number): 'green' | 'yellow' | 'red' {
  if (isCriticalFlaky(fraction)) return 'red';
  if (fraction < 0.8) return 'yellow';
  return 'green';
}

/** Cuts text to `max` characters, adding '...' when it was longer. */
export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/** The last path segment: 'tests/shop/cart.spec.ts' → 'cart.spec.ts'. */
export function fileName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] || path;
}

/**
 * Parses a server timestamp; one without a zone ('2026-11-20 10:00:00') is UTC (docs/screens.md#display-rules: the
 * pending list treats zone-less timestamps as UTC). Null for missing or unparsable values.
 */
export function parseTimestamp(value: string | null | undefined): Date | null {
  if (!value) return null;
  const trimmed = value.trim();
  const hasZone = /(?:Z|[+-]\d{2}:?\d{2})$/i.test(trimmed);
  const iso = trimmed.includes('T') || !/^\d{4}-\d{2}-\d{2} /.test(trimmed) ? trimmed : trimmed.replace(' ', 'T');
  const date = new Date(hasZone || !/^\d{4}-\d{2}-\d{2}T/.test(iso) ? iso : `${iso}Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}

// One formatter each, made on first use: `toLocaleString` with options builds a new one per
// call, 55 ms of the flaky dialog's script for its fifty history entries (docs/testing.md).
let dateTimeFormat: Intl.DateTimeFormat | null = null;
let dateFormat: Intl.DateTimeFormat | null = null;

/** Date and time in the viewer's locale and zone; `fallback` when missing. */
export function formatDateTime(value: string | null | undefined, fallback = 'Unknown date'): string {
  const date = parseTimestamp(value);
  if (!date) return fallback;
  dateTimeFormat ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return dateTimeFormat.format(date);
}

export function formatDate(value: string | null | undefined, fallback = 'Unknown date'): string {
  const date = parseTimestamp(value);
  if (!date) return fallback;
  dateFormat ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
  return dateFormat.format(date);
}

/** docs/screens.md#browser-detection: a browser value containing ', ' is several browsers. */
export function isMultiBrowser(browser: string | null | undefined): boolean {
  return typeof browser === 'string' && browser.includes(', ');
}
