/** Sorting and paging of a table's rows, outside React so it is tested on its own. */
export type SortDirection = 'asc' | 'desc';
export type SortValue = string | number | null | undefined;

/** A stable sort: equal keys keep their order; empty keys (null, undefined) go last either way. */
export function sortRows<T>(rows: readonly T[], key: ((row: T) => SortValue) | undefined, direction: SortDirection): T[] {
  if (!key) return [...rows];
  const sign = direction === 'asc' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index, value: key(row) }))
    .sort((a, b) => {
      const aEmpty = a.value === null || a.value === undefined;
      const bEmpty = b.value === null || b.value === undefined;
      if (aEmpty || bEmpty) return aEmpty === bEmpty ? a.index - b.index : aEmpty ? 1 : -1;
      const order = typeof a.value === 'number' && typeof b.value === 'number' ? a.value - b.value : String(a.value).localeCompare(String(b.value));
      return order === 0 ? a.index - b.index : sign * order;
    })
    .map((entry) => entry.row);
}

/** The rows of one page (1-based); a page past the end shows the last page. */
export function pageRows<T>(rows: readonly T[], page: number, pageSize: number): { rows: T[]; page: number } {
  const pages = Math.max(1, Math.ceil(rows.length / pageSize));
  const current = Math.min(Math.max(1, Math.floor(page)), pages);
  return { rows: rows.slice((current - 1) * pageSize, current * pageSize), page: current };
}
