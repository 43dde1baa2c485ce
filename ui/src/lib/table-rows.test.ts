import { describe, expect, it } from 'vitest';
import { pageRows, sortRows } from './table-rows.js';

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
