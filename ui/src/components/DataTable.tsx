import { Table, UnstyledButton, Group, Text } from '@mantine/core';
import { useState, type CSSProperties, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
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
  testId?: string;
}

export interface DataTableProps<T> {
  columns: DataColumn<T>[];
  rows: readonly T[];
  rowKey(row: T): string;
  /** Shown instead of the table when there are no rows. */
  empty?: ReactNode;
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
  const { columns, rows, rowKey, empty, paging, initialSort, stickyFirstColumn, stacked, onRowClick, rowLabel, minWidth, scrollTestId, testId, rowTestId, ariaLabel, verticalSpacing = 'xs', highlightOnHover, striped, rowData, rowDimmed, busy, withoutHeader, fixedLayout, horizontalSpacing, withRowBorders } = props;
  const [sort, setSort] = useState(initialSort);
  const [page, setPage] = useState(1);
  const phone = usePhone();
  if (rows.length === 0 && empty !== undefined) return <>{empty}</>;
  const sortColumn = columns.find((column) => column.key === sort?.key);
  const sorted = sortRows(rows, sortColumn?.sortValue, sort?.direction ?? 'asc');
  const shown = paging ? pageRows(sorted, page, paging.pageSize) : { rows: sorted, page: 1 };
  const stackedLayout = phone && stacked !== undefined;
  const cellClass = (index: number) => (stickyFirstColumn && index === 0 ? sticky.sticky : undefined);
  const rowStyle = (row: T) => {
    const dimmed = rowDimmed?.(row) === true;
    return onRowClick || dimmed ? { cursor: onRowClick ? 'pointer' : undefined, opacity: dimmed ? 0.5 : undefined } : undefined;
  };
  const rowEvents = (row: T) =>
    onRowClick && {
      tabIndex: 0,
      'aria-label': rowLabel?.(row),
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
  const body = shown.rows.map((row) => (
    <Table.Tr key={rowKey(row)} data-testid={rowTestId} {...rowData?.(row)} style={rowStyle(row)} {...rowEvents(row)}>
      {stackedLayout ? <Table.Td>{stacked(row)}</Table.Td> : cells(row)}
    </Table.Tr>
  ));
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
