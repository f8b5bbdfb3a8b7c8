/**
 * What DataTable (ui.tsx) asks of TanStack Table (`@tanstack/react-table` 9, headless): the
 * features it registers (sorting and paging, nothing else), its columns as TanStack column
 * definitions, and the table's options for a sort and a page (docs/console.md "Sorting and
 * paging"). Imported from table-core, which @tanstack/react-table re-exports: no React here, so the ordering and paging can be checked without a browser.
 */
import {
  createPaginatedRowModel,
  createSortedRowModel,
  rowPaginationFeature,
  rowSortingFeature,
  tableFeatures,
  type ColumnDef,
  type RowData,
  type SortingState,
  type TableOptions,
} from '@tanstack/table-core';
import { compareSortValues, sortableValue, type SortDescriptor, type SortValue } from './sort.ts';

/** What the table logic needs of a DataTable's column (ui.tsx `Column`, which adds its cell and card roles). */
export interface SortableColumn<T, K extends string = string> {
  header: string;
  /** The column's name in the URL's `?sort=` when the table sorts by it (its header becomes a button); `K`: the table's sort keys. */
  sortKey?: K;
  /**
   * The value the loaded rows are ordered by, when the list's API takes no sort parameter (the
   * rows are sorted in the browser); absent when the API sorts (the rows arrive in order).
   */
  sortValue?: (row: T) => SortValue;
}

/**
 * The TanStack Table features of a DataTable: sorting (the sorted row model) and pages of the
 * sorted rows (the paginated row model).
 */
export const tableFeatureSet = tableFeatures({
  rowSortingFeature,
  rowPaginationFeature,
  sortedRowModel: createSortedRowModel(),
  paginatedRowModel: createPaginatedRowModel(),
});

/** What a DataTable's sort is for TanStack Table: `[{ id: sortKey, desc }]`, or none. */
export function sortingOf(sort: SortDescriptor | null): SortingState {
  return sort ? [{ id: String(sort.column), desc: sort.direction === 'descending' }] : [];
}

/**
 * The columns as TanStack column definitions (the cells are DataTable's to draw): each one's id its `sortKey` (else `column-<i>`), its
 * value its `sortValue` (an empty one undefined, sorted last either way), compared in English
 * order (numbers within text by value) or by number; sortable when it has a `sortKey` and the
 * table sorts (`sortable`).
 */
export function columnDefsOf<T extends RowData>(columns: SortableColumn<T>[], sortable: boolean): ColumnDef<typeof tableFeatureSet, T>[] {
  return columns.map((c, i) => ({
    id: c.sortKey ?? `column-${i}`,
    header: c.header,
    accessorFn: (row: T) => (c.sortValue ? sortableValue(c.sortValue(row)) : undefined),
    enableSorting: Boolean(c.sortKey && sortable),
    sortUndefined: 'last',
    sortFn: (a, b, id) => compareSortValues(a.getValue(id) as NonNullable<SortValue>, b.getValue(id) as NonNullable<SortValue>),
  }));
}

/**
 * The options of a DataTable's TanStack table: `rows` keyed by `rowKey`, ordered by `sort` in the
 * browser when its column has a `sortValue` (else manualSorting: the API sorted them), and, with a
 * `pageSize`, page `page` (from 1) of them (else every row: the API paged them). Sort and page are
 * the caller's (from the URL), never the table's own state.
 */
export function tableOptionsOf<T extends RowData>(o: {
  columns: SortableColumn<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  sort: SortDescriptor | null;
  sortable: boolean;
  page: number;
  pageSize: number | null;
}): TableOptions<typeof tableFeatureSet, T> {
  const sorted = o.sort ? o.columns.find((c) => c.sortKey === o.sort!.column) : undefined;
  return {
    features: tableFeatureSet,
    columns: columnDefsOf(o.columns, o.sortable),
    data: o.rows,
    getRowId: (r) => o.rowKey(r),
    state: {
      sorting: sortingOf(sorted ? o.sort : null),
      pagination: { pageIndex: o.page - 1, pageSize: o.pageSize ?? Math.max(1, o.rows.length) },
    },
    manualSorting: !sorted?.sortValue,
    manualPagination: o.pageSize === null,
    autoResetPageIndex: false,
    enableSortingRemoval: false,
    enableMultiSort: false,
  };
}
