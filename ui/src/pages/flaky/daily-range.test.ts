import { describe, expect, it } from 'vitest';
import type { DailyStat } from '../../../../core/api/analytics.js';
import { statsInRange } from './daily-range.js';

const day = (date: string): DailyStat => ({ date, pass_rate: 1, total_runs: 1, passed_runs: 1, failed_runs: 0, avg_duration: 1 });

describe('statsInRange', () => {
  const stats = ['2026-11-20', '2026-08-20', '2026-11-14', '2026-11-13', '2026-10-22', '2026-10-21'].map(day);
  const today = new Date('2026-11-20T23:30:00Z');

  it('keeps everything, oldest first, for all time', () => {
    expect(statsInRange(stats, 'all', today).map((s) => s.date)).toEqual(['2026-08-20', '2026-10-21', '2026-10-22', '2026-11-13', '2026-11-14', '2026-11-20']);
  });

  it('counts today as the first of the last N days', () => {
    expect(statsInRange(stats, '7', today).map((s) => s.date)).toEqual(['2026-11-14', '2026-11-20']);
    expect(statsInRange(stats, '30', today).map((s) => s.date)).toEqual(['2026-10-22', '2026-11-13', '2026-11-14', '2026-11-20']);
    expect(statsInRange(stats, '90', today).map((s) => s.date)).toHaveLength(5);
  });
});
