import { Table, UnstyledButton, Group, Text } from '@mantine/core';
import { useState, type CSSProperties, type ReactNode } from 'react';
import { pageRows, sortRows, type SortDirection, type SortValue } from '../lib/table-rows.js';
import { ListPager } from './ListPager.js';

export interface DataColumn<T> {
  /** Unique within the table; also the React key of the column. */
  key: string;
  header: ReactNode;
  cell(row: T): ReactNode;
  /** When set, the header is a button that sorts by this value. */
  sortValue?(row: T): SortValue;
  align?: 'left' | 'center' | 'right';
  width?: number | string;
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
  minWidth?: number;
  testId?: string;
  rowTestId?: string;
  ariaLabel?: string;
  verticalSpacing?: number | string;
  highlightOnHover?: boolean;
}

const STICKY: CSSProperties = { position: 'sticky', left: 0, zIndex: 1, background: 'var(--mantine-color-body)' };

/** One table for every list: columns with header and cell, optional sorting, paging and an empty state. */
export function DataTable<T>({ columns, rows, rowKey, empty, paging, initialSort, stickyFirstColumn, minWidth, testId, rowTestId, ariaLabel, verticalSpacing = 'xs', highlightOnHover }: DataTableProps<T>) {
  const [sort, setSort] = useState(initialSort);
  const [page, setPage] = useState(1);
  if (rows.length === 0 && empty !== undefined) return <>{empty}</>;
  const sortColumn = columns.find((column) => column.key === sort?.key);
  const sorted = sortRows(rows, sortColumn?.sortValue, sort?.direction ?? 'asc');
  const shown = paging ? pageRows(sorted, page, paging.pageSize) : { rows: sorted, page: 1 };
  const cellStyle = (index: number): CSSProperties | undefined => (stickyFirstColumn && index === 0 ? STICKY : undefined);
  const table = (
    <Table verticalSpacing={verticalSpacing} highlightOnHover={highlightOnHover} data-testid={testId} aria-label={ariaLabel}>
      <Table.Thead>
        <Table.Tr>
          {columns.map((column, index) => (
            <Table.Th key={column.key} ta={column.align} w={column.width} style={cellStyle(index)} aria-sort={sort?.key === column.key ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined}>
              {column.sortValue ? (
                <UnstyledButton onClick={() => setSort({ key: column.key, direction: sort?.key === column.key && sort.direction === 'asc' ? 'desc' : 'asc' })}>
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
      <Table.Tbody>
        {shown.rows.map((row) => (
          <Table.Tr key={rowKey(row)} data-testid={rowTestId}>
            {columns.map((column, index) => (
              <Table.Td key={column.key} ta={column.align} style={cellStyle(index)}>
                {column.cell(row)}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
  return (
    <>
      {minWidth ? <Table.ScrollContainer minWidth={minWidth}>{table}</Table.ScrollContainer> : table}
      {paging && <ListPager page={shown.page} pageSize={paging.pageSize} total={rows.length} noun={paging.noun} onPage={setPage} testId={paging.testId} />}
    </>
  );
}
