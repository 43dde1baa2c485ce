import { describe, expect, it } from 'vitest';
import { nextSort, opensRow, pageRows, sortRows } from './table-rows.js';

describe('sortRows', () => {
  const rows = [
    { name: 'b', ms: 30 },
    { name: 'a', ms: null },
    { name: 'c', ms: 10 },
    { name: 'd', ms: 30 },
  ];
  it('sorts numbers both ways, keeps ties in order and puts empty keys last', () => {
    expect(sortRows(rows, (r) => r.ms, 'asc').map((r) => r.name)).toEqual(['c', 'b', 'd', 'a']);
    expect(sortRows(rows, (r) => r.ms, 'desc').map((r) => r.name)).toEqual(['b', 'd', 'c', 'a']);
  });
  it('sorts text and leaves the rows as they are without a key', () => {
    expect(sortRows(rows, (r) => r.name, 'desc').map((r) => r.name)).toEqual(['d', 'c', 'b', 'a']);
    expect(sortRows(rows, undefined, 'asc')).toEqual(rows);
  });
});

describe('pageRows', () => {
  const rows = Array.from({ length: 7 }, (_, i) => i);
  it('cuts one page and clamps a page past either end', () => {
    expect(pageRows(rows, 2, 3)).toEqual({ rows: [3, 4, 5], page: 2 });
    expect(pageRows(rows, 9, 3)).toEqual({ rows: [6], page: 3 });
    expect(pageRows(rows, 0, 3)).toEqual({ rows: [0, 1, 2], page: 1 });
    expect(pageRows([], 1, 3)).toEqual({ rows: [], page: 1 });
  });
});

describe('nextSort', () => {
  it('starts a new column ascending and flips the same column', () => {
    expect(nextSort(undefined, 'name')).toEqual({ key: 'name', direction: 'asc' });
    expect(nextSort({ key: 'name', direction: 'asc' }, 'name')).toEqual({ key: 'name', direction: 'desc' });
    expect(nextSort({ key: 'name', direction: 'desc' }, 'name')).toEqual({ key: 'name', direction: 'asc' });
    expect(nextSort({ key: 'name', direction: 'desc' }, 'ms')).toEqual({ key: 'ms', direction: 'asc' });
  });
});

describe('opensRow', () => {
  const row = { closest: () => null };
  // An element inside the row whose nearest control is `control` (null: plain text).
  const inside = (control: unknown) => ({ closest: () => control });
  it('opens on a click on plain content but not on a link or button inside the row', () => {
    expect(opensRow({ type: 'click', target: inside(null), currentTarget: row })).toBe(true);
    expect(opensRow({ type: 'click', target: inside({ tag: 'a' }), currentTarget: row })).toBe(false);
  });
  it('opens on Enter or Space on the row itself only', () => {
    expect(opensRow({ type: 'keydown', key: 'Enter', target: row, currentTarget: row })).toBe(true);
    expect(opensRow({ type: 'keydown', key: ' ', target: row, currentTarget: row })).toBe(true);
    expect(opensRow({ type: 'keydown', key: 'a', target: row, currentTarget: row })).toBe(false);
    expect(opensRow({ type: 'keydown', key: 'Enter', target: inside(null), currentTarget: row })).toBe(false);
    expect(opensRow({ type: 'mousedown', target: row, currentTarget: row })).toBe(false);
  });
});
