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

/** A click on a sortable header: the same column flips its direction, another column starts ascending. */
export function nextSort(current: { key: string; direction: SortDirection } | undefined, key: string): { key: string; direction: SortDirection } {
  return { key, direction: current?.key === key && current.direction === 'asc' ? 'desc' : 'asc' };
}

/** Links, buttons and fields inside a clickable row keep their own click; the row does not also open. */
const OWN_CLICK = 'a, button, input, select, textarea, label, [role="button"], [role="checkbox"], [role="switch"]';

/**
 * Whether an event on a clickable row should open the row: a click anywhere but on a control
 * inside it, or Enter or Space on the focused row itself (not on a control within it).
 */
export function opensRow(event: { type: string; key?: string; target: unknown; currentTarget: unknown }): boolean {
  const target = event.target as { closest?(selector: string): unknown } | null;
  if (event.type === 'keydown') return event.target === event.currentTarget && (event.key === 'Enter' || event.key === ' ');
  if (event.type !== 'click') return false;
  return !(typeof target?.closest === 'function' && target.closest(OWN_CLICK));
}
