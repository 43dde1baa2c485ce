/**
 * A duration axis in one unit: formatDuration picks a unit per value, so one axis read
 * '0ms, 25.0s, 1.3m'. The axis's largest value picks the unit by formatDuration's thresholds, and
 * the ticks are round steps of that unit.
 */

export type DurationUnit = 'ms' | 's' | 'm';

const MS_PER: Record<DurationUnit, number> = { ms: 1, s: 1000, m: 60_000 };

export interface DurationAxis {
  unit: DurationUnit;
  /** Tick positions in ms, from 0 to the first round step at or above the largest value. */
  ticks: number[];
  /** A tick's label in the axis's unit: '0s', '12.5s', '25s'. */
  format(ms: number): string;
}

/** The unit of an axis whose largest value is `maxMs`: under 1 s ms, under 1 min s, else min. */
export function durationUnit(maxMs: number): DurationUnit {
  if (maxMs < 1000) return 'ms';
  if (maxMs < 60_000) return 's';
  return 'm';
}

/** A step of 1, 2, 2.5 or 5 × 10^k that gives about `count` steps up to `max`. */
function roundStep(max: number, count: number): number {
  const raw = max / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].find((m) => m * magnitude >= raw) ?? 10;
  return step * magnitude;
}

export function durationAxis(maxMs: number, count = 4): DurationAxis {
  const unit = durationUnit(maxMs);
  const per = MS_PER[unit];
  const max = Math.max(maxMs, 0) / per;
  // Milliseconds are whole; a second or a minute may be split.
  const step = max > 0 ? (unit === 'ms' ? Math.max(1, Math.ceil(roundStep(max, count))) : roundStep(max, count)) : 1;
  const steps = Math.max(1, Math.ceil(max / step - 1e-9));
  const ticks = Array.from({ length: steps + 1 }, (_, i) => Math.round(i * step * per * 1000) / 1000);
  const format = (ms: number) => `${Number((ms / per).toFixed(unit === 'ms' ? 0 : 2))}${unit}`;
  return { unit, ticks, format };
}
