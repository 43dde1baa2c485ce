import { Table, UnstyledButton, Group, Text } from '@mantine/core';
import { Fragment, useState, type CSSProperties, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { nextSort, opensRow, pageRows, sortRows, type SortDirection, type SortValue } from '../lib/table-rows.js';
import { usePhone } from '../lib/use-phone.js';
import { ListPager } from './ListPager.js';
import sticky from './sticky-column.module.css';

export interface DataColumn<T> {
  /** Unique within the table; also the React key of the column. */
  key: string;
  header: ReactNode;
  /** The accessible name of a header with nothing to read, e.g. 'Open' over a column of cues. */
  headerLabel?: string;
  cell(row: T): ReactNode;
  /** When set, the header is a button that sorts by this value. */
  sortValue?(row: T): SortValue;
  align?: 'left' | 'center' | 'right';
  width?: number | string;
  /** Style of every cell of the column, e.g. a minimum width or where long text may break. */
  style?: CSSProperties;
  /** Caps a long cell, e.g. a test name, so the other columns keep their room. */
  maxWidth?: number;
  /** Text colour of the cell, e.g. green for a passed count. */
  color?(row: T): string | undefined;
  /** How many columns this cell fills for a row (the cells it covers are left out), e.g. one message across a row's figures. */
  colSpan?(row: T): number;
  /** A class of the column's header and cells, e.g. to keep it in place while the table scrolls sideways. */
  className?: string;
  testId?: string;
}

export interface DataTableProps<T> {
  columns: DataColumn<T>[];
  rows: readonly T[];
  rowKey(row: T): string;
  /** Shown instead of the table when there are no rows. */
  empty?: ReactNode;
  /** Shows `empty` as one row under the header instead, e.g. when a filter left nothing: the columns stay in view. */
  emptyInTable?: boolean;
  /** Pages the rows in the browser with ListPager; leave out for a table that shows all rows or pages on the server. */
  paging?: { pageSize: number; noun: string; testId: string };
  initialSort?: { key: string; direction: SortDirection };
  /** Keeps the first column in view while a wide table scrolls sideways on a phone. */
  stickyFirstColumn?: boolean;
  /**
   * The phone layout: on a phone-wide screen each row is this one cell (name on top, its figures
   * under their column names) and the table has no header, as a wide table's columns do not fit.
   */
  stacked?(row: T): ReactNode;
  /** Makes each row open something: a click on it (not on a link or button inside it), or Enter or Space once it has focus. */
  onRowClick?(row: T): void;
  /** The accessible name of a clickable row, e.g. 'Open run of 3 May'. */
  rowLabel?(row: T): string;
  minWidth?: number;
  /** The test id of the sideways scroll container a `minWidth` table sits in. */
  scrollTestId?: string;
  testId?: string;
  rowTestId?: string;
  ariaLabel?: string;
  verticalSpacing?: number | string;
  highlightOnHover?: boolean;
  striped?: boolean;
  /** Data attributes of a row, e.g. { 'data-id': 42 } for a test to find it by. */
  rowData?(row: T): Record<`data-${string}`, string | number>;
  /** Fades a row, e.g. while it is being deleted. */
  rowDimmed?(row: T): boolean;
  /** More style of a row, e.g. the highlight of one a link pointed to. */
  rowStyle?(row: T): CSSProperties | undefined;
  /** Receives each row's element, e.g. to scroll one into view. */
  rowRef?(row: T, element: HTMLTableRowElement | null): void;
  /** Whether a row is open: its `expansion` shows under it, across every column, and the row says it is expanded. */
  rowExpanded?(row: T): boolean;
  expansion?(row: T, layout: { stacked: boolean }): ReactNode;
  expansionTestId?: string;
  /** A short list whose columns need no names, e.g. a test, its browser and one figure. */
  withoutHeader?: boolean;
  /** Columns keep their set widths and long text is cut rather than widening the table. */
  fixedLayout?: boolean;
  horizontalSpacing?: number | string;
  withRowBorders?: boolean;
  /** The rows are being reloaded: the table fades and says it is busy. */
  busy?: boolean;
}

/** One table for every list: columns with header and cell, optional sorting, paging, a phone layout and an empty state. */
export function DataTable<T>(props: DataTableProps<T>) {
  const { columns, rows, rowKey, empty, emptyInTable, paging, initialSort, stickyFirstColumn, stacked, onRowClick, rowLabel, minWidth, scrollTestId, testId, rowTestId, ariaLabel, verticalSpacing = 'xs', highlightOnHover, striped, rowData, rowDimmed, rowStyle: extraRowStyle, rowRef, rowExpanded, expansion, expansionTestId, busy, withoutHeader, fixedLayout, horizontalSpacing, withRowBorders } = props;
  const [sort, setSort] = useState(initialSort);
  const [page, setPage] = useState(1);
  const phone = usePhone();
  if (rows.length === 0 && empty !== undefined && !emptyInTable) return <>{empty}</>;
  const sortColumn = columns.find((column) => column.key === sort?.key);
  const sorted = sortRows(rows, sortColumn?.sortValue, sort?.direction ?? 'asc');
  const shown = paging ? pageRows(sorted, page, paging.pageSize) : { rows: sorted, page: 1 };
  const stackedLayout = phone && stacked !== undefined;
  const cellClass = (index: number) => [stickyFirstColumn && index === 0 ? sticky.sticky : undefined, columns[index]!.className].filter(Boolean).join(' ') || undefined;
  const rowStyle = (row: T): CSSProperties | undefined => {
    const dimmed = rowDimmed?.(row) === true;
    const own = onRowClick || dimmed ? { cursor: onRowClick ? 'pointer' : undefined, opacity: dimmed ? 0.5 : undefined } : undefined;
    const extra = extraRowStyle?.(row);
    return own || extra ? { ...own, ...extra } : undefined;
  };
  const rowEvents = (row: T) =>
    onRowClick && {
      tabIndex: 0,
      'aria-label': rowLabel?.(row),
      'aria-expanded': rowExpanded?.(row),
      onClick: (event: MouseEvent<HTMLTableRowElement>) => opensRow(event) && onRowClick(row),
      onKeyDown: (event: KeyboardEvent<HTMLTableRowElement>) => {
        if (!opensRow(event)) return;
        event.preventDefault();
        onRowClick(row);
      },
    };
  const cells = (row: T) => {
    const shownCells: ReactNode[] = [];
    for (let index = 0; index < columns.length; index++) {
      const column = columns[index]!;
      const span = Math.max(1, Math.min(column.colSpan?.(row) ?? 1, columns.length - index));
      shownCells.push(
        <Table.Td key={column.key} ta={column.align} maw={column.maxWidth} c={column.color?.(row)} style={column.style} className={cellClass(index)} colSpan={span > 1 ? span : undefined} data-testid={span > 1 ? undefined : column.testId}>
          {column.cell(row)}
        </Table.Td>,
      );
      index += span - 1;
    }
    return shownCells;
  };
  const shownColumns = stackedLayout ? 1 : columns.length;
  const body = shown.rows.map((row) => {
    const open = expansion !== undefined && rowExpanded?.(row) === true;
    return (
      <Fragment key={rowKey(row)}>
        <Table.Tr ref={rowRef && ((element: HTMLTableRowElement | null) => rowRef(row, element))} data-testid={rowTestId} {...rowData?.(row)} style={rowStyle(row)} {...rowEvents(row)}>
          {stackedLayout ? <Table.Td>{stacked(row)}</Table.Td> : cells(row)}
        </Table.Tr>
        {open && (
          <Table.Tr data-testid={expansionTestId}>
            <Table.Td colSpan={shownColumns} p={0} style={{ backgroundColor: 'var(--mantine-color-default-hover)' }}>
              {expansion(row, { stacked: stackedLayout })}
            </Table.Td>
          </Table.Tr>
        )}
      </Fragment>
    );
  });
  if (rows.length === 0 && emptyInTable && empty !== undefined)
    body.push(
      <Table.Tr key="empty">
        <Table.Td colSpan={shownColumns}>{empty}</Table.Td>
      </Table.Tr>,
    );
  const table = (
    <Table
      verticalSpacing={verticalSpacing}
      horizontalSpacing={horizontalSpacing}
      withRowBorders={withRowBorders}
      highlightOnHover={highlightOnHover}
      striped={striped}
      data-testid={testId}
      aria-label={ariaLabel}
      data-layout={stackedLayout ? 'stacked' : undefined}
      aria-busy={busy}
      style={busy || fixedLayout ? { opacity: busy ? 0.6 : undefined, tableLayout: fixedLayout ? 'fixed' : undefined } : undefined}
    >
      {!stackedLayout && !withoutHeader && (
        <Table.Thead>
          <Table.Tr>
            {columns.map((column, index) => (
              <Table.Th
                key={column.key}
                ta={column.align}
                w={column.width}
                className={cellClass(index)}
                aria-label={column.headerLabel}
                aria-sort={sort?.key === column.key ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined}
              >
                {column.sortValue ? (
                  <UnstyledButton onClick={() => setSort(nextSort(sort, column.key))}>
                    <Group gap={4} wrap="nowrap">
                      <Text fw={700} size="sm">
                        {column.header}
                      </Text>
                      {sort?.key === column.key && <Text size="xs">{sort.direction === 'asc' ? '▲' : '▼'}</Text>}
                    </Group>
                  </UnstyledButton>
                ) : (
                  column.header
                )}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
      )}
      <Table.Tbody>{body}</Table.Tbody>
    </Table>
  );
  return (
    <>
      {minWidth && !stackedLayout ? (
        <Table.ScrollContainer minWidth={minWidth} data-testid={scrollTestId}>
          {table}
        </Table.ScrollContainer>
      ) : table}
      {paging && <ListPager page={shown.page} pageSize={paging.pageSize} total={rows.length} noun={paging.noun} onPage={setPage} testId={paging.testId} />}
    </>
  );
}
